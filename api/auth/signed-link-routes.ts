import { fieldError } from '../../core/errors.js';
import { RotatedSigningSecret, SignedRenderLink } from '../accounts/account-shapes.js';
import { KEY_ID_PARAMS, KEY_SIGN_LINK_PARAMS } from './auth-params.js';
import { callerOf } from '../http/state.js';
import { API_PREFIX, defineRoute, type ApiRoute } from '../http/route.js';
import { buildSignedQuery, SIGNED_LINK_PARAMS } from './signed-links.js';

const tag = 'API keys';

/** The route signed links are for (beyond-v1.md part 2). */
const RENDER_PATH = '/screenshot/render';

/** POST /key/rotate-signing-secret and POST /key/sign-link: an API key's signing secret and the links it signs. */
export const SIGNED_LINK_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'post',
    path: '/key/rotate-signing-secret',
    operationId: 'rotateSigningSecret',
    tag,
    credentials: 'account',
    summary: 'A new signing secret for a key (in this answer only); the previous one keeps signing for SHOTFARM_SIGNING_SECRET_GRACE_SECONDS',
    body: KEY_ID_PARAMS,
    required: ['id'],
    response: { data: RotatedSigningSecret, description: 'The new secret' },
    handler: (ctx, { signingSecrets }, { id }) => signingSecrets.rotate(callerOf(ctx), id as number),
  }),
  defineRoute({
    method: 'post',
    path: '/key/sign-link',
    operationId: 'signRenderLink',
    tag,
    credentials: 'account',
    summary: 'A signed GET /screenshot/render link for these parameters, signed here with the key\'s current secret (the dashboard\'s "copy as signed link")',
    body: KEY_SIGN_LINK_PARAMS,
    required: ['id', 'query'],
    response: { data: SignedRenderLink, description: 'The link' },
    handler: async (ctx, { config, signingSecrets }, { id, query, expires }) => {
      const params = String(query).replace(/^\?/, '');
      const own = [...new URLSearchParams(params).keys()].filter((name) => name === 'key' || (SIGNED_LINK_PARAMS as readonly string[]).includes(name));
      if (own.length > 0) throw fieldError('query', `holds ${[...new Set(own)].join(', ')}: the link adds access, expires and signature itself, and carries no API key`);
      const { access, secret } = await signingSecrets.currentOf(callerOf(ctx), id as number);
      if (secret === null) throw fieldError('id', 'the key has no signing secret yet: rotate it (POST /key/rotate-signing-secret) to get one');
      const signed = buildSignedQuery(access, params, secret, expires ?? undefined);
      return { url: `${config.publicUrl}${API_PREFIX}${RENDER_PATH}?${signed}`, access, expires: expires ?? null };
    },
  }),
];
