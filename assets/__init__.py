"""The display font (assets/fonts: Quicksand, with its licence), shipped as package data."""
