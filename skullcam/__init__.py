"""skullcam: a camera-assisted referee and live scoreboard for Skull King.

The design card's top-level folders are subpackages of this one import name
(``rules/`` is ``skullcam.rules``, ``vision/`` is ``skullcam.vision``...), so an installed
skullcam works from any directory while the repository keeps its flat layout.
"""

__version__ = "0.1.0"
