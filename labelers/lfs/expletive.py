"""Expletive and weather "it": no entity to bind to."""
from snorkel.labeling import labeling_function

from labelers.labels import ABSTAIN, NOT_BOUND
from labelers.lfs._util import BLOCK, flag, weather_it


@labeling_function()
def lf_expletive_it(x):
    """Extraposition / expletive it: "It was necessary to go" -> NOT_BOUND."""
    return NOT_BOUND if flag(x.expletive_it) else ABSTAIN


@labeling_function(resources=dict(weather=BLOCK["weather"]))
def lf_weather_it(x, weather):
    """"it" with a weather, temperature or time adjective, and no other kind conjoined with it: "It was cold",
    "it was late and dark" -> NOT_BOUND; "It was hot and bitter" (the coffee) -> ABSTAIN."""
    return NOT_BOUND if weather_it(x, weather) else ABSTAIN


LFS = [lf_expletive_it, lf_weather_it]
