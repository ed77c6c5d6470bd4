"""Where a new method's estimator class goes (``docs/pages/extending.md``).

A class here is named in ``conf/method/<name>.yaml`` by its import path
(``estimator: "forestrepro.extensions.<module>:<Class>"``), and its file is part of the code
digest of every run record of that method, so editing it reruns exactly those jobs.
"""
