"""allauth's words on the account pages, listed so the site's catalogue translates them.

The sign-up, sign-in, password and e-mail pages are allauth's own templates
and forms; their German came from allauth's catalogue, which writes "Email"
("Email-Adresse", "Email ändern"), "Anmeldename" where the site says
"Benutzername", and "Sie" on some pages where the site says "du". Django reads
the catalogues of LOCALE_PATHS before those of the apps, so a msgid in
locale/de/LC_MESSAGES/django.po replaces allauth's German. makemessages only
keeps msgids it finds in the project's sources: this module is where it finds
them. Nothing imports it.

Each msgid is allauth's exactly (the context too, where allauth uses
pgettext): tests/accounts/test_german_account_pages.py checks them against
allauth's catalogue, so an allauth upgrade that rewords one shows up there.
Only the words that appear with this site's settings are here (no login by
code, no phones, no passkeys, no social accounts, one e-mail address per
account).
"""

from django.utils.translation import gettext_noop, pgettext_lazy

WORDS = (
    # Sign-up (account/signup.html, SignupForm)
    gettext_noop("Signup"),
    gettext_noop("Sign Up"),
    gettext_noop("Already have an account? Then please %(link)ssign in%(end_link)s."),
    gettext_noop("Email"),
    gettext_noop("Email address"),
    gettext_noop("email address"),
    gettext_noop("Username"),
    gettext_noop("Password"),
    gettext_noop("Password (again)"),
    gettext_noop("You must type the same password each time."),
    # Sign-in and sign-out (account/login.html, LoginForm, account/logout.html)
    gettext_noop("Sign In"),
    gettext_noop(
        "If you have not created an account yet, then please %(link)ssign up%(end_link)s first."
    ),
    pgettext_lazy("field label", "Login"),
    gettext_noop("Username or email"),
    gettext_noop("Forgot your password?"),
    gettext_noop("Remember Me"),
    gettext_noop("The username and/or password you specified are not correct."),
    gettext_noop("The email address and/or password you specified are not correct."),
    gettext_noop("Too many failed login attempts. Try again later."),
    gettext_noop("Account Inactive"),
    gettext_noop("This account is inactive."),
    gettext_noop("Sign Out"),
    gettext_noop("Are you sure you want to sign out?"),
    # Messages after signing in and out (account/messages/)
    gettext_noop("Successfully signed in as %(name)s."),
    gettext_noop("You have signed out."),
    # Confirming an address (account/verification_sent.html, account/email_confirm.html)
    gettext_noop("Verify Your Email Address"),
    gettext_noop(
        "We have sent an email to you for verification. Follow the link provided to "
        "finalize the signup process. If you do not see the verification email in your "
        "main inbox, check your spam folder. Please contact us if you do not receive the "
        "verification email within a few minutes."
    ),
    gettext_noop("Confirm Email Address"),
    gettext_noop(
        'Please confirm that <a href="mailto:%(email)s">%(email)s</a> is an email address '
        "for user %(user_display)s."
    ),
    gettext_noop(
        "Unable to confirm %(email)s because it is already confirmed by a different account."
    ),
    gettext_noop(
        "This email confirmation link expired or is invalid. Please "
        '<a href="%(email_url)s">issue a new email confirmation request</a>.'
    ),
    gettext_noop("Confirmation email sent to %(email)s."),
    gettext_noop("You have confirmed %(email)s."),
    # Changing the address (account/email_change.html, AddEmailForm)
    gettext_noop("Email Address"),
    gettext_noop("Current email"),
    gettext_noop("Changing to"),
    gettext_noop("Your email address is still pending verification."),
    gettext_noop("Re-send Verification"),
    gettext_noop("Cancel Change"),
    gettext_noop("Change to"),
    gettext_noop("Change Email"),
    gettext_noop("This email address is already associated with this account."),
    gettext_noop("Removed email address %(email)s."),
    gettext_noop("You cannot remove your primary email address (%(email)s)."),
    # Resetting and changing the password (account/password_*.html, their forms)
    gettext_noop("Password Reset"),
    gettext_noop(
        "Forgotten your password? Enter your email address below, and we'll send you an "
        "email allowing you to reset it."
    ),
    gettext_noop("Reset My Password"),
    gettext_noop("Please contact us if you have any trouble resetting your password."),
    gettext_noop(
        "We have sent you an email. If you have not received it please check your spam "
        "folder. Otherwise contact us if you do not receive it in a few minutes."
    ),
    gettext_noop("Bad Token"),
    gettext_noop(
        "The password reset link was invalid, possibly because it has already been used.  "
        'Please request a <a href="%(passwd_reset_url)s">new password reset</a>.'
    ),
    gettext_noop("Change Password"),
    gettext_noop("Current Password"),
    gettext_noop("New Password"),
    gettext_noop("New Password (again)"),
    gettext_noop("Please type your current password."),
    gettext_noop("Your password is now changed."),
    gettext_noop("Password successfully changed."),
    # Confirming access again (account/reauthenticate.html)
    gettext_noop("Confirm Access"),
    gettext_noop("Please reauthenticate to safeguard your account."),
    gettext_noop("Enter your password:"),
    gettext_noop("Alternative options"),
    gettext_noop("Send me a sign-in code"),
    # Subjects of the account mail (account/email/*_subject.txt; the site has the bodies)
    gettext_noop("Please Confirm Your Email Address"),
    gettext_noop("Password Reset Email"),
    gettext_noop("Unknown Account"),
    gettext_noop("Account Already Exists"),
    # ... and of the change notices, sent once ACCOUNT_EMAIL_NOTIFICATIONS is on.
    gettext_noop("Email Changed"),
    gettext_noop("Email Confirmation"),
    gettext_noop("Email Removed"),
    gettext_noop("Password Changed"),
    gettext_noop("Password Set"),
)
