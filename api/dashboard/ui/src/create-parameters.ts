// The query parameters of GET /screenshot/create as the service's own OpenAPI document states them. The
// option table (api/options/create-params.ts) is their one owner; the document is derived from it, so a
// new option reaches the create form and "copy as curl" without a change to the dashboard.
import { API_BASE } from './api.js';
import type { JsonSchema } from './schema-form.js';

export interface CreateParameter {
  name: string;
  description: string;
  schema: JsonSchema;
  /** another spelling of an option (the document says `alias of …`) */
  alias: boolean;
}

let parameters: Promise<CreateParameter[]> | null = null;

/** The create parameters but the credential, in the table's order (fetched once per visit). */
export function createParameters(): Promise<CreateParameter[]> {
  parameters ??= fetch(`${API_BASE}/openapi.json`, { credentials: 'same-origin' })
    .then((res) => res.json() as Promise<{ paths: Record<string, { get?: { parameters?: { name: string; in: string; description?: string; schema?: JsonSchema }[] } }> }>)
    .then((doc) =>
      (doc.paths['/screenshot/create']?.get?.parameters ?? [])
        .filter((p) => p.in === 'query' && p.name !== 'key')
        .map((p) => ({ name: p.name, description: p.description ?? '', schema: p.schema ?? {}, alias: (p.description ?? '').startsWith('alias of ') })),
    )
    .catch((err: unknown) => {
      parameters = null;
      throw err;
    });
  return parameters;
}
