import { expect } from 'chai';
import { FiltersEngine, Request } from '@ghostery/adblocker';
import http from 'node:http';
import type net from 'node:net';
import tls from 'node:tls';
import { MaintainedEngines } from '../../drivers/shared/block-lists/maintained-engines.js';
import { CATEGORY_RULESETS, rulesetFilters } from '../../drivers/shared/block-lists/maintained-lists.js';
import { RequestBlocker } from '../../drivers/shared/block-lists/request-blocker.js';
import { defaultFilterListPath } from '../../drivers/shared/filter-list-path.js';
import { captureSpec } from '../support/capture-spec-factory.js';
import { ThirdPartySite } from '../support/third-party-site.js';

/** A page of no vendor's list of named sites: what AdGuard's site-specific rules do not cover. */
const PAGE = 'https://shop.example/pricing';

/** The six common vendors' chat embeds, as their install snippets write them (and what those load next). */
const EMBEDS: Record<string, string[]> = {
  Intercom: ['https://widget.intercom.io/widget/abcd1234', 'https://js.intercomcdn.com/frame-modern.0a1b2c3d.js'],
  Drift: ['https://js.driftt.com/include/1700000000/drift-app.js'],
  Crisp: ['https://client.crisp.chat/l.js'],
  Zendesk: [
    'https://static.zdassets.com/ekr/snippet.js?key=00000000-0000-0000-0000-000000000000',
    'https://static.zdassets.com/web_widget/messenger/latest/web-widget-main-1a2b3c.js',
    'https://ekr.zdassets.com/compose/zopim_chat/zendesk.js',
  ],
  HubSpot: ['https://js.usemessages.com/conversations-embed.js', 'https://app.hubspot.com/conversations-visitor/1000/threads/utk/abc'],
  Tawk: ['https://embed.tawk.to/5f0000aa/default'],
};

const script = (url: string) => ({ url, resourceType: 'script', mainFrame: false, pageUrl: PAGE });

/**
 * block_chats' list: AdGuard's Widgets rule set with the repository's supplement
 * (drivers/brave/filters/shotfarm-chats.txt), read from the files a driver reads.
 */
describe('block_chats list: AdGuard Widgets with the supplement for Intercom, Zendesk messaging and HubSpot', function () {
  this.timeout(60_000);
  const engines = new MaintainedEngines([defaultFilterListPath()]);

  it('blocks every embed of the six vendors on any site, counted in chats', async function () {
    const blocker = (await RequestBlocker.forSpec(captureSpec('chrome', PAGE, { blockChats: true }), false, engines, null))!;
    const passed = Object.entries(EMBEDS).flatMap(([vendor, urls]) => urls.filter((url) => blocker.judge(script(url)) !== 'chats').map((url) => `${vendor}: ${url}`));
    expect(passed).to.deep.equal([]);
    expect(blocker.counts.chats).to.equal(Object.values(EMBEDS).flat().length);
  });

  it('is needed: AdGuard Widgets alone lets Intercom and Zendesk messaging through on a site it does not name', async function () {
    // When this fails, AdGuard's network rules cover them everywhere now, and the supplement's rule can go.
    const widgets = FiltersEngine.parse((await Promise.all(CATEGORY_RULESETS.chats.map(rulesetFilters))).flat().join('\n'), { loadCosmeticFilters: false });
    const matched = (url: string) => widgets.match(Request.fromRawDetails({ url, sourceUrl: PAGE, type: 'script' })).match;
    expect(matched(EMBEDS.Intercom![0]!)).to.equal(false);
    expect(matched(EMBEDS.Zendesk![0]!)).to.equal(false);
    expect(matched(EMBEDS.Crisp![0]!)).to.equal(true);
  });

  it("leaves the vendors' other products alone: help-centre assets, images, the HubSpot tracking code", async function () {
    const blocker = (await RequestBlocker.forSpec(captureSpec('chrome', PAGE, { blockChats: true }), false, engines, null))!;
    for (const url of [
      'https://static.zdassets.com/hc/assets/application-0a1b2c.js',
      'https://theme.zdassets.com/theme_assets/1000/style.css',
      'https://downloads.intercomcdn.com/i/o/1000/article-image.png',
      'https://static.intercomassets.com/avatars/1000/square_128/photo.jpg',
      'https://js.hs-scripts.com/1000.js',
    ])
      expect(blocker.judge(script(url)), url).to.equal(null);
  });
});

/** Sends `CONNECT host:443` to the proxy and returns the status line it answers with, and the socket. */
function connect(proxyUrl: string, host: string): Promise<{ status: string; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(proxyUrl);
    const request = http.request({ host: hostname, port, method: 'CONNECT', path: `${host}:443` });
    request.on('connect', (answer: http.IncomingMessage, socket: net.Socket) => resolve({ status: String(answer.statusCode), socket }));
    request.on('error', reject);
    request.end();
  });
}

describe('the third-party test site over https (test/support/third-party-site.ts)', function () {
  this.timeout(30_000);
  let site: ThirdPartySite;
  before(async function () {
    site = await ThirdPartySite.start(['client.crisp.chat']);
  });
  after(async function () {
    await site?.close();
  });

  it('ends TLS for a fixture host with a certificate made for it, and serves its fixture', async function () {
    const { status, socket } = await connect(site.proxy.url, 'client.crisp.chat');
    expect(status).to.equal('200');
    const secure = tls.connect({ socket, servername: 'client.crisp.chat', rejectUnauthorized: false });
    await new Promise((resolve) => secure.once('secureConnect', resolve));
    expect(tls.checkServerIdentity('client.crisp.chat', secure.getPeerCertificate())).to.equal(undefined);
    expect(tls.checkServerIdentity('widget.intercom.io', secure.getPeerCertificate())).to.be.instanceOf(Error);
    const before = site.hits('client.crisp.chat/l.js');
    secure.write('GET /l.js HTTP/1.1\r\nHost: client.crisp.chat\r\nConnection: close\r\n\r\n');
    let answer = '';
    for await (const chunk of secure) answer += String(chunk);
    expect(answer)
      .to.match(/^HTTP\/1\.1 200/)
      .and.to.include('crisp-client');
    expect(site.hits('client.crisp.chat/l.js')).to.equal(before + 1);
  });

  it('answers 502 to a CONNECT for any other name, resolving nothing', async function () {
    const { status, socket } = await connect(site.proxy.url, 'widget.intercom.io');
    socket.destroy();
    expect(status).to.equal('502');
  });
});
