import { z } from 'zod';
import { fieldsOf } from './param-schemas.js';
import { API_PREFIX, type ApiRoute, type JsonSchema } from './route.js';

/**
 * openapi.json, built from the route descriptors: every served route is an operation, its parameters come
 * from the same tables that validate requests, its 200 from the shape the handler answers.
 */

const errorSchema = {
  type: 'object',
  required: ['success', 'error', 'code', 'details'],
  properties: {
    success: { const: false },
    error: { type: 'string' },
    code: { type: 'string' },
    details: { type: 'object', properties: { request_id: { type: 'string' } } },
    fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: '400 only: field → messages' },
    retry_after: { type: 'integer', description: '429 only: seconds to wait' },
    status: { const: 'error', description: '403 only' },
  },
};

const ERROR_STATUSES: Record<string, string> = {
  400: 'Invalid parameters: `fields` names each',
  401: 'Missing or invalid credential (INVALID_API_KEY)',
  403: 'Forbidden: insufficient balance, or a role the caller lacks',
  404: 'Not found (a record of another account answers the same)',
  410: 'A signed link past its `expires` (LINK_EXPIRED)',
  413: 'The body is too large',
  429: 'Rate limit exceeded: `retry_after` seconds',
  500: 'Server error',
  503: 'Temporarily unavailable',
};

/** The parameters of a signed render link (a `signedAccess` route; api/auth/signed-links.ts verifies them). */
const SIGNED_ACCESS_QUERY: Record<string, JsonSchema> = {
  access: { description: "signed link: the public id of the API key that signed it (POST /key/create's `access`)", schema: { type: 'string' } },
  expires: { description: 'signed link: unix seconds after which it answers 410 LINK_EXPIRED (covered by the signature)', schema: { type: 'integer', minimum: 0 } },
  signature: {
    description:
      "signed link, the last parameter: lowercase hex HMAC-SHA256, keyed with the key's signing secret, of the exact query string before `&signature=` (403 INVALID_SIGNATURE when it does not match); a signed answer is `Cache-Control: public` and its `cache` defaults to 86400",
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
};

/** Names whose absence is a 400, as the document states them (a function of configuration says it in the description). */
const requiredNames = (route: ApiRoute): readonly string[] => (typeof route.required === 'function' ? [] : (route.required ?? []));

function parametersOf(route: ApiRoute): object[] {
  const required = requiredNames(route);
  // A field both the query and the body may carry (an id) is required in neither place alone.
  const inBody = new Set(Object.keys(route.body ?? {}));
  const eitherPlace = (f: { name: string; alias: boolean }): boolean => !f.alias && required.includes(f.name) && inBody.has(f.name);
  const parameters: object[] = fieldsOf(route.query ?? {}).map((f) => ({
    name: f.name,
    in: 'query',
    required: !f.alias && required.includes(f.name) && !inBody.has(f.name),
    description: eitherPlace(f) ? `${f.description ?? f.name} (required: here or in the JSON body)` : f.description,
    ...(f.param.list ? { style: 'form', explode: true } : {}),
    schema: f.schema,
  }));
  for (const [name, spec] of Object.entries(route.extraQuery ?? {})) parameters.push({ name, in: 'query', required: false, ...spec });
  if (route.signedAccess) for (const [name, spec] of Object.entries(SIGNED_ACCESS_QUERY)) parameters.push({ name, in: 'query', required: false, ...spec });
  return parameters;
}

function requestBodyOf(route: ApiRoute): object {
  const required = requiredNames(route);
  const inQuery = new Set(Object.keys(route.query ?? {}));
  const properties: Record<string, JsonSchema> = {};
  for (const f of fieldsOf(route.body ?? {})) properties[f.name] = { ...f.schema, ...(f.description ? { description: f.description } : {}) };
  Object.assign(properties, route.extraBody ?? {});
  const requiredHere = Object.keys(route.body ?? {}).filter((n) => required.includes(n) && !inQuery.has(n));
  const schema = { type: 'object', properties, ...(requiredHere.length > 0 ? { required: requiredHere } : {}) };
  const mediaTypes = route.upload?.mediaTypes ?? ['application/json'];
  return {
    required: requiredHere.length > 0,
    description: route.bodyOnly ? 'These fields are read from the body only: a password or token in the URL is refused (400).' : undefined,
    content: Object.fromEntries(mediaTypes.map((t) => [t, { schema }])),
  };
}

/** Names the response schemas: the shapes by their own name, other data by the operation's. */
class SchemaNames {
  readonly registry = z.registry<{ id: string }>();
  private readonly names = new Map<z.ZodType, string>();
  constructor(shapes: Record<string, z.ZodType>) {
    for (const [name, schema] of Object.entries(shapes)) this.add(schema, name);
  }
  private add(schema: z.ZodType, name: string): string {
    this.names.set(schema, name);
    this.registry.add(schema, { id: name });
    return name;
  }
  ref(schema: z.ZodType, nameIfNew: string): { $ref: string } {
    return { $ref: `#/components/schemas/${this.names.get(schema) ?? this.add(schema, nameIfNew)}` };
  }
  components(): Record<string, JsonSchema> {
    const { schemas } = z.toJSONSchema(this.registry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any', io: 'input' }) as { schemas: Record<string, JsonSchema> };
    return Object.fromEntries(Object.entries(schemas).map(([name, { $schema: _s, $id: _i, ...schema }]) => [name, schema]));
  }
}

const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The spec's success envelope around a shape. */
const envelopeOf = (data: object): object => ({ type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } });

function responsesOf(route: ApiRoute, names: SchemaNames): object {
  const r = route.response;
  let ok: object;
  if ('data' in r) {
    const data = names.ref(r.data, `${capitalised(route.operationId)}Data`);
    ok = { description: r.description, content: { 'application/json': { schema: envelopeOf(data) } } };
  } else if ('json' in r) {
    ok = { description: r.description, content: { 'application/json': { schema: names.ref(r.json, `${capitalised(route.operationId)}Answer`) } } };
  } else {
    const envelope = r.envelope;
    const schemaOf = (t: string): object =>
      t === 'application/json' && envelope
        ? envelopeOf(names.ref(envelope, `${capitalised(route.operationId)}Data`))
        : t.startsWith('text/')
          ? { type: 'string' }
          : { type: 'string', format: 'binary' };
    ok = { description: r.description, content: Object.fromEntries(r.content.map((t) => [t, { schema: schemaOf(t) }])) };
  }
  const errors =
    route.credentials === 'none'
      ? ['500']
      : ['400', ...(route.credentials === 'anonymous' ? [] : ['401', '403']), '404', ...(route.signedAccess ? ['410'] : []), ...(route.upload ? ['413'] : []), '429', '500', '503'];
  return {
    200: ok,
    ...Object.fromEntries(errors.map((s) => [s, { description: ERROR_STATUSES[s], content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }])),
  };
}

/**
 * The OpenAPI 3.1 document of these routes, served from `publicUrl`; `shapes` are the response shapes listed
 * under components/schemas by their name (api/route-table.ts's SHAPES), in that order.
 */
export function buildOpenApi(routes: readonly ApiRoute[], publicUrl: string, shapes: Record<string, z.ZodType> = {}): Record<string, unknown> {
  const names = new SchemaNames(shapes);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= route.outside ? { servers: [{ url: publicUrl }] } : {});
    const credentialFree = route.credentials === 'none' || route.credentials === 'anonymous';
    item[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      ...(credentialFree ? { security: [] } : {}),
      ...(route.signedLink ? { security: [{ queryKey: [] }, { headerKey: [] }, { bearer: [] }, { signedLink: [] }] } : {}),
      ...(route.signedAccess ? { security: [{ queryKey: [] }, { headerKey: [] }, { bearer: [] }, { signedRenderLink: [] }] } : {}),
      parameters: parametersOf(route),
      ...(route.method === 'post' ? { requestBody: requestBodyOf(route) } : {}),
      responses: responsesOf(route, names),
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'shotfarm screenshot API', version: '1.1.0' },
    servers: [{ url: `${publicUrl}${API_PREFIX}` }],
    security: [{ queryKey: [] }, { headerKey: [] }, { bearer: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    components: {
      securitySchemes: {
        queryKey: { type: 'apiKey', in: 'query', name: 'key' },
        headerKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        signedLink: { type: 'apiKey', in: 'query', name: 'token', description: "a signed, expiring link (a batch's zip_url, a webhook's image_url)" },
        signedRenderLink: {
          type: 'apiKey',
          in: 'query',
          name: 'signature',
          description: 'a signed render link: `access=<key id>&…&expires=<unix s>&signature=<hex HMAC-SHA256 of the query before &signature=>` (docs/api-clients.md, "Render links")',
        },
      },
      schemas: { Error: errorSchema, ...names.components() },
    },
    paths,
  };
}
