"""The scenes drawn inside the views: the sowing board, its stones and their animation."""
