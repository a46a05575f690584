import { defineTool, ToolRegistry, type Exposure } from '@toolshed/core';
import * as v from 'valibot';

const text = (name: string, description: string, field: string, fieldDescription: string) =>
  defineTool({
    name,
    description,
    input: v.object({ [field]: v.pipe(v.string(), v.description(fieldDescription)) }),
    annotations: { readOnly: true },
    run: (input: Record<string, string>) => `${name}(${input[field]})`,
  });

/** A dozen tools of different kinds, so that a search has something to tell apart. */
export function catalogueRegistry(exposure?: Exposure): ToolRegistry {
  const registry = new ToolRegistry(exposure ? { exposure } : {});
  registry.register(text('read_file', 'Read a text file of the project by line range.', 'path', 'The file to read.'));
  registry.register(text('list_directory', 'List the files and folders in a directory.', 'path', 'The directory.'));
  registry.register(text('get_weather', 'Current weather and forecast for a city.', 'city', 'The city, e.g. Oslo.'));
  registry.register(text('git_status', 'Show the working tree status of a git repository.', 'repo_path', 'The repository.'));
  registry.register(text('git_log', 'Show the commit history of a git repository.', 'repo_path', 'The repository.'));
  registry.register(text('slack_post_message', 'Post a message to a Slack channel.', 'channel_id', 'The channel.'));
  registry.register(text('maps_directions', 'Directions between two places by car, bike or on foot.', 'origin', 'Where to start.'));
  registry.register(text('get_current_time', 'The current time in a time zone.', 'timezone', 'An IANA time zone like Europe/Oslo.'));
  registry.register(text('brave_web_search', 'Search the web for pages, news and articles.', 'query', 'The search terms.'));
  registry.register(text('query', 'Run a read-only SQL query against the PostgreSQL database.', 'sql', 'The SQL to run.'));
  registry.register(text('create_issue', 'Open a new issue in a GitHub repository.', 'title', 'The issue title.'));
  registry.register(text('fetch', 'Fetch a URL and return its content as markdown.', 'url', 'The URL.'));
  return registry.seal();
}
