// The seed's weather tools in TypeScript: plain functions, their types are the contract.
// Build: npx tspc -p examples/weather   Run: node examples/weather/dist/server.js (stdio)
import { MCPServer, type Integer } from "typemcp";

const mcp = new MCPServer("Weather");

const READINGS: Record<string, Integer> = { London: 17, Cairo: 34, Reykjavik: 4 };

interface WeatherData {
  /** Degrees Celsius. */
  temperature: number;
  /** Relative humidity, 0 to 1. */
  humidity: number;
  conditions: string;
}

/** Current temperature in a city, in whole degrees Celsius. */
function get_temperature(city: string): Integer {
  return READINGS[city];
}

/** Current weather for a city. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- `city` is the tool's input schema; the example answers alike for every city
function get_weather(city: string): WeatherData {
  return { temperature: 16.2, humidity: 0.83, conditions: "Overcast" };
}

/** Daily forecast for a city. */
function get_forecast(city: string, days: Integer): WeatherData[] {
  return Array.from({ length: days }, (_, day) => ({
    temperature: 16.2 + day,
    humidity: 0.83,
    conditions: "Overcast",
  }));
}

/** Current temperature for each city, in degrees Celsius. */
function get_temperatures(cities: string[]): Record<string, number> {
  return Object.fromEntries(cities.map((city) => [city, READINGS[city]]));
}

/** A human-readable weather report for a city. */
function weather_report(city: string): string {
  return `${city}: 17 degrees, overcast, light rain easing by evening.`;
}

mcp.tool(get_temperature);
mcp.tool(get_weather);
mcp.tool(get_forecast);
mcp.tool(get_temperatures);
mcp.tool(weather_report, { structuredOutput: false });

mcp.run(); // stdio
