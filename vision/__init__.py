"""From image to structured table: reading images, detecting and reading tiles, grouping them into hands."""
