from fractions import Fraction

from django import template
from django.utils import formats

register = template.Library()

_VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


@register.filter
def points(value) -> str:
    """Points as players write them: 2½, ⅓, 3; other fractions as decimals."""
    if value is None or value == "":
        return ""
    value = Fraction(value)
    whole, part = divmod(value, 1)
    if part == 0:
        return str(int(whole))
    if part in _VULGAR:
        return (str(int(whole)) if whole else "") + _VULGAR[part]
    return formats.number_format(round(float(value), 2), 2)


@register.filter
def score(value) -> str:
    """The title's own score: whole numbers without decimals."""
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    return formats.number_format(round(float(value), 2), 2)
