"""The StoneCave application: the arcade window, its screens, and the text (console) mode of every game."""
