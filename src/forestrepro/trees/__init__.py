"""trees."""
