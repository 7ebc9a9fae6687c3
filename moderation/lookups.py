"""Admin lists that cannot be made to leak what their pages hide.

Django's admin accepts a filter on any field of the model in the list URL, so
``?seed__lte=…`` would recover a running game's seed by bisection, and
``?text__contains=…`` a pending password-reset key, one character at a time.
"""

from django.contrib import admin
from django.db.models.constants import LOOKUP_SEP

# Never filterable from any admin list, directly or through a relation.
SECRET_FIELDS = frozenset({"seed", "seed_salt", "action", "password", "text", "html"})


class SecretSafeAdmin(admin.ModelAdmin):
    #: Fields of this model that its own list may filter on although they are
    #: in SECRET_FIELDS (the chat's ``text`` is no secret to a moderator).
    public_fields: frozenset[str] = frozenset()

    def lookup_allowed(self, lookup, value, request=None):
        parts = lookup.split(LOOKUP_SEP)
        if parts[0] not in self.public_fields and SECRET_FIELDS.intersection(parts):
            return False
        return super().lookup_allowed(lookup, value, request)
