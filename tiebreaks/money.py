"""Prize money as readers see it: integer minor units in the currency's symbol, localised (the prize
pages and the prize guide use this one formatter)."""

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import pgettext

from .prizes import CURRENCIES


def money(amount: int, currency: str) -> str:
    """Integer minor units as money: 15000 GBP -> "£150", 5833 GBP -> "£58.33" (never through a float)."""
    symbol, decimals = CURRENCIES.get(currency, (currency, 2))
    value = Decimal(amount).scaleb(-decimals)
    shown = number_format(value, decimal_pos=0 if amount % 10**decimals == 0 else decimals, force_grouping=True)
    return pgettext("money: currency symbol and amount", "%(symbol)s%(amount)s") % {"symbol": symbol, "amount": shown}
