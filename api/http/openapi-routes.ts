import { z } from 'zod';
import { defineRoute, type ApiRoute } from './route.js';

/** GET /api/v1/openapi.json (unauthenticated): the document built from the route table (openapi-document.ts). */
export const OPENAPI_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApi',
    tag: 'Operations',
    credentials: 'none',
    summary: 'This document (OpenAPI 3.1); rendered at /docs',
    response: { json: z.looseObject({ openapi: z.string() }), description: 'The OpenAPI document' },
    handler: (ctx, deps) => {
      ctx.body = deps.openApiDocument;
    },
  }),
];
