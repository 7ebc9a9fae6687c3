"""The one change the audit trail allows: a deleted account's names give way to its
pseudonym (GDPR Art. 17). What was done, when, by which moderator and why stays."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import models
from django.db.models import Q

from .models import AuditEntry

TEXT_FIELDS = ("moderator_name", "target", "reason")


def rename_in_audit_trail(names: Iterable[str], rename: Callable[[str], str]) -> int:
    """Rewrite each entry that names one of ``names`` with ``rename``; how many changed."""
    mentions = Q(pk__in=[])
    for name in names:
        if name:
            for field in TEXT_FIELDS:
                mentions |= Q(**{f"{field}__icontains": name})
    changed = 0
    for entry in AuditEntry.objects.filter(mentions):
        fields = {field: rename(getattr(entry, field)) for field in TEXT_FIELDS}
        fields["target"] = fields["target"][:250]
        fields["moderator_name"] = fields["moderator_name"][:150]
        # Past AuditQuerySet.update, which refuses every other change.
        changed += models.QuerySet.update(AuditEntry.objects.filter(pk=entry.pk), **fields)
    return changed
