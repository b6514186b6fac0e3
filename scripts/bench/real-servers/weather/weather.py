"""A FastMCP server as a user writes it (the MCP quickstart's weather server, with its
settings read by pydantic-settings from WEATHER_* variables). Part of the real-servers corpus:
scripts/bench/real-servers.sh runs it healthy and with faults users hit."""

import logging
import os

from fastmcp import FastMCP
from pydantic import AnyHttpUrl, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

log = logging.getLogger("weather")
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="WEATHER_")

    api_url: AnyHttpUrl = AnyHttpUrl("https://api.weather.gov")
    api_key: str | None = None
    units: str = Field(default="metric", pattern="^(metric|imperial)$")
    timeout_s: float = 10.0


settings = Settings()
if "WEATHER_UNITS" not in os.environ:
    log.warning("WEATHER_UNITS is not set, defaulting to %s", settings.units)

mcp = FastMCP("weather")


@mcp.tool()
def get_forecast(latitude: float, longitude: float) -> str:
    """The forecast for a place (a stub: the corpus never reaches the network)."""
    return f"forecast for {latitude},{longitude} in {settings.units} units from {settings.api_url}"


def main() -> None:
    mcp.run()


if __name__ == "__main__":
    main()
