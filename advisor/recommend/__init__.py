"""Load-profile-aware recommendations: the profile (four numbers and the goal), the values computed
from it with their formulas, and the sizing answers (docs/recommend.md)."""
