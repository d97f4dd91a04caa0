"""Every sentence the command line writes, in any language of the catalogues
(``--lang``; :func:`remi_rules._i18n.languages`).

:func:`tr` looks a key up (the catalogue entry ``cli:<key>``) and fills its
``{placeholders}``; the game terms follow the glossary (docs/glossary.md): *tablă* is
the rack, *masă* the table, *șir* the discard row, *grămadă* the stock, *etalare*
the first etalare, *lipire* laying off.

>>> tr("en", "seat", n=2), tr("ro", "seat", n=2)
('seat 2', 'locul 2')
>>> tiles("en", 1), tiles("ro", 3), tiles("ro", 21), tiles("ro", 0)
('1 tile', '3 piese', '21 de piese', '0 piese')
"""

from __future__ import annotations

from .. import _i18n as i18n

__all__ = ["languages", "tiles", "tr"]


def languages() -> tuple[str, ...]:
    """The ``--lang`` choices: the languages with a catalogue."""
    return i18n.languages()


def tr(lang: str, key: str, /, **details: object) -> str:
    """The sentence ``key`` in ``lang``, its placeholders filled.  An unknown ``lang``
    raises :class:`ValueError`, an unknown key :class:`KeyError`."""
    return i18n.text(f"cli:{key}", lang, details, bounded=False)


def tiles(lang: str, n: int) -> str:
    """``n`` tiles, in words, by the language's plural rule: ``1 tile``, ``3 tiles``;
    ``1 piesă``, ``3 piese``, ``20 de piese``."""
    return i18n.counted("tiles", n, lang)
