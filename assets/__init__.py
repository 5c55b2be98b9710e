"""Images, sounds and fonts, shipped as package data."""
