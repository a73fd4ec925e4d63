"""Every write of the league domain, one module per domain; pages, the API, imports and the admin call
these functions and never write models themselves."""
