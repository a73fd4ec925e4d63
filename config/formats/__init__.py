"""Date and number formats where the site departs from Django's for a language (FORMAT_MODULE_PATH)."""
