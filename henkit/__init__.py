"""henkit: exact odds, rules engines, bots and teaching widgets for Henpen and Hens."""

__version__ = "0.1.0"
