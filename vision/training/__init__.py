"""Training and export of the shipped models. Needs the `train` extra (torch, ultralytics); never imported at run time."""
