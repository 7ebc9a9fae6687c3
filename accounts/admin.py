from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ["username", "email", "display_name", "is_active", "date_joined", "last_login"]
    search_fields = ["username", "email", "display_name"]
    fieldsets = BaseUserAdmin.fieldsets + (("Site", {"fields": User.PREFERENCE_FIELDS}),)
