import { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey } from './key-management.js';
import { KEY_CREATE_PARAMS, KEY_ID_PARAMS } from '../auth/auth-params.js';
import { callerOf } from '../http/state.js';
import { ApiKey, NewApiKey } from './account-shapes.js';
import { defineRoute, type ApiRoute } from '../http/route.js';

const tag = 'API keys';

/** GET /key/list, POST /key/create and POST /key/delete?id=: the account's API keys. */
export const KEY_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/key/list',
    operationId: 'listApiKeys',
    tag,
    credentials: 'account',
    summary: "The account's API keys (never their secrets)",
    response: { data: z.array(ApiKey), description: 'The keys' },
    handler: (ctx, { db }) => listApiKeys(db, callerOf(ctx)),
  }),
  defineRoute({
    method: 'post',
    path: '/key/create',
    operationId: 'createApiKey',
    tag,
    credentials: 'account',
    summary: 'A new API key: its secret and its signing secret are in this answer only',
    body: KEY_CREATE_PARAMS,
    response: { data: NewApiKey, description: 'The key with its secret' },
    handler: (ctx, { db, signingSecrets }, p) => createApiKey(db, callerOf(ctx), p.name || null, signingSecrets),
  }),
  defineRoute({
    method: 'post',
    path: '/key/delete',
    operationId: 'deleteApiKey',
    tag,
    credentials: 'account',
    summary: 'Revoke an API key (not the one the request uses)',
    query: KEY_ID_PARAMS,
    required: ['id'],
    response: { data: z.looseObject({ id: z.number().int(), deleted: z.literal(true) }), description: 'The key is revoked' },
    handler: async (ctx, { db }, { id }) => {
      await revokeApiKey(db, callerOf(ctx), id as number);
      return { id, deleted: true };
    },
  }),
];
