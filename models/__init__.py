"""The shipped weights (package data); see README.md here for each model card."""
