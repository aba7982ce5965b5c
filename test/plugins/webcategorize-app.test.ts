import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { checkAppPlugin, memoryFiles, runContext, sampleScreenshot, SAMPLE_PNG } from '../../plugins/contract-kit.js';
import { AppRunError, type AppEndpoints, type AppFile, type AppFiles, type AppPlugin, type ScreenshotRecordData } from '../../plugins/contract.js';
import { categorize } from '../../plugins/webcategorize/categorize.js';
import { saturate } from '../../plugins/webcategorize/classify.js';
import { decodeEntities } from '../../plugins/webcategorize/html-entities.js';
import { allTerms } from '../../plugins/webcategorize/keyword-matcher.js';
import { detectLanguage, languageFromTag } from '../../plugins/webcategorize/language.js';
import { extractPageText } from '../../plugins/webcategorize/page-text.js';
import { CATEGORY_NAMES, ENGLISH_FALSE_FRIENDS, TAXONOMY } from '../../plugins/webcategorize/taxonomy.js';
import { normalizeText, tokenize } from '../../plugins/webcategorize/tokenize.js';
import { pageUrlEvidence, parseUrl, type UrlParts } from '../../plugins/webcategorize/url-signals.js';
import { createWebcategorizeApp } from '../../plugins/webcategorize/webcategorize-app.js';
import { repoPath } from '../support/repo-path.js';

const ENDPOINTS: AppEndpoints = {
  slackApiUrl: 'http://127.0.0.1:1/slack',
  googleDriveApiUrl: 'http://127.0.0.1:1/drive',
  googleTokenUrl: 'http://127.0.0.1:1/token',
  dropboxApiUrl: 'http://127.0.0.1:1/dropbox',
  dropboxContentUrl: 'http://127.0.0.1:1/content',
  microsoftGraphUrl: 'http://127.0.0.1:1/graph',
  microsoftLoginUrl: 'http://127.0.0.1:1/login',
};
const DEFAULTS = { max_categories: 3, min_score: 0.15 };

interface Output {
  categories: { name: string; score: number }[];
  language: string;
  basis: string;
}

const fixture = (name: string): string => readFileSync(join(repoPath('test/fixtures/webcategorize'), name), 'utf8');

const htmlFile = (html: string): { file: AppFile; body: Buffer } => {
  const body = Buffer.from(html, 'utf8');
  return { file: { kind: 'html', shot: null, contentType: 'text/html; charset=utf-8', size: body.length, extension: 'html' }, body };
};
const imageFile = { file: { kind: 'image', shot: 1, contentType: 'image/png', size: SAMPLE_PNG.length, extension: 'png' } as AppFile, body: SAMPLE_PNG };

const record = (url: string, extra: Partial<ScreenshotRecordData> = {}): ScreenshotRecordData => sampleScreenshot({ url, final_url: url, links: [], ...extra });

async function runApp(opts: { html?: string | null; url: string; links?: string[]; settings?: Record<string, unknown> }): Promise<Output> {
  const plugin = createWebcategorizeApp(ENDPOINTS);
  const settings = plugin.settingsSchema.parse(opts.settings ?? {});
  const files = memoryFiles(opts.html == null ? [imageFile] : [imageFile, htmlFile(opts.html)]);
  const out = await plugin.run(runContext(settings, { screenshot: record(opts.url, { links: opts.links ?? [] }), files }));
  expect(Object.keys(out)).to.deep.equal(['output_data']);
  return out.output_data as unknown as Output;
}

const names = (o: Output): string[] => o.categories.map((c) => c.name);

describe('webcategorize app', () => {
  let plugin: AppPlugin;
  before(() => {
    plugin = createWebcategorizeApp(ENDPOINTS);
  });

  describe('the descriptor and the contract', () => {
    it('is a local, non-uploading app that does not run for failed screenshots', () => {
      expect(plugin.type).to.equal('webcategorize');
      expect(plugin.uploads).to.equal(false);
      expect(plugin.runsOnError).to.equal(false);
      expect(plugin.deliver).to.equal(undefined);
    });

    it('passes the contract kit with a sample record whose files include HTML', async () => {
      const screenshot = record('https://www.littlekitchentable.com/easy-banana-bread/', { links: ['https://www.littlekitchentable.com/recipes/'] });
      const { output } = await checkAppPlugin(plugin, {
        settings: { max_categories: 2, min_score: 0.2 },
        invalidSettings: [
          { settings: { max_categories: 0 }, why: 'max_categories below 1' },
          { settings: { max_categories: 11 }, why: 'max_categories above 10' },
          { settings: { max_categories: 2.5 }, why: 'max_categories not an integer' },
          { settings: { max_categories: '3' }, why: 'max_categories not a number' },
          { settings: { min_score: -0.1 }, why: 'min_score below 0' },
          { settings: { min_score: 1.5 }, why: 'min_score above 1' },
          { settings: { api_key: 'x' }, why: 'an unknown setting (it has no secrets)' },
        ],
        screenshot,
        files: memoryFiles([imageFile, htmlFile(fixture('recipe.html'))]),
        noIo: true,
      });
      const data = output.output_data as unknown as Output;
      expect(data.basis).to.equal('html');
      expect(data.language).to.equal('en');
      expect(data.categories[0]?.name).to.equal('food-drink');
      expect(data.categories.length).to.be.at.most(2);
    });

    it('passes the contract kit with its own sample screenshot and files (a bakery page)', async () => {
      const { output } = await checkAppPlugin(plugin, { settings: {}, noIo: true });
      expect((output.output_data as unknown as Output).categories[0]?.name).to.equal('food-drink');
    });

    it('still refuses to start when its signal is already aborted', async () => {
      const aborted = new AbortController();
      aborted.abort(new Error('time is up'));
      const settings = plugin.settingsSchema.parse({});
      let read = false;
      const files: AppFiles = {
        ...memoryFiles(),
        read: async () => {
          read = true;
          return Buffer.from('');
        },
      };
      const err = await plugin.run(runContext(settings, { signal: aborted.signal, files })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(AppRunError);
      expect(read).to.equal(false);
    });

    it('fails (retryably) when the HTML cannot be read, instead of guessing from the URL', async () => {
      const settings = plugin.settingsSchema.parse({});
      const files: AppFiles = {
        ...memoryFiles(),
        read: async () => {
          throw new Error('storage unavailable');
        },
      };
      const err = await plugin.run(runContext(settings, { files })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(AppRunError);
      expect((err as AppRunError).retryable).to.equal(true);
      expect((err as AppRunError).message).to.include('storage unavailable');
    });

    it('defaults to 3 categories and a 0.15 threshold', () => {
      expect(plugin.settingsSchema.parse({})).to.deep.equal(DEFAULTS);
    });
  });

  describe('realistic pages', () => {
    const cases: { file: string; url: string; top: string; language: string }[] = [
      { file: 'news-article.html', url: 'https://www.northernherald.co.uk/news/uk/2024/11/03/flooding-storm-ellen-evacuations', top: 'news', language: 'en' },
      { file: 'product-page.html', url: 'https://stride-outfitters.com/products/trailrunner-pro-3-mens', top: 'shopping', language: 'en' },
      { file: 'recipe.html', url: 'https://www.littlekitchentable.com/easy-banana-bread/', top: 'food-drink', language: 'en' },
      { file: 'french-news.html', url: 'https://www.lequotidiendusoir.fr/societe/article/2024/03/14/greve-transports-trafic-sncf-perturbe', top: 'news', language: 'fr' },
      { file: 'japanese-travel.html', url: 'https://tabinote.jp/kyoto/model-course', top: 'travel', language: 'ja' },
    ];
    for (const c of cases) {
      it(`${c.file}: ${c.top}, language ${c.language}`, async () => {
        const out = await runApp({ html: fixture(c.file), url: c.url });
        expect(out.basis).to.equal('html');
        expect(out.language).to.equal(c.language);
        expect(out.categories[0]?.name, JSON.stringify(out.categories)).to.equal(c.top);
        expect(out.categories[0]?.score).to.be.above(0.6);
      });
    }

    it('the same pages also classify on a neutral URL (the text alone decides)', async () => {
      for (const c of cases) {
        const out = await runApp({ html: fixture(c.file), url: 'https://www.example.com/page' });
        expect(out.categories[0]?.name, c.file).to.equal(c.top);
      }
    });

    it('a news article about a public matter names politics second, and nothing unrelated', async () => {
      const out = await runApp({ html: fixture('news-article.html'), url: 'https://www.northernherald.co.uk/news/uk/2024/11/03/flooding-storm-ellen-evacuations' });
      expect(names(out)).to.deep.equal(['news', 'government-politics']);
    });

    it('a shop selling running shoes is shopping first, fashion second', async () => {
      const out = await runApp({ html: fixture('product-page.html'), url: 'https://stride-outfitters.com/products/trailrunner-pro-3-mens' });
      expect(names(out)).to.deep.equal(['shopping', 'style-fashion']);
    });

    it('an empty page: no category, no language, and it says the URL was all it had', async () => {
      const out = await runApp({ html: fixture('empty.html'), url: 'https://www.example.org/' });
      expect(out).to.deep.equal({ categories: [], language: '', basis: 'url-and-links' });
    });

    it('a page that is only scripts: the words inside scripts, styles, comments, templates and SVG are not read', async () => {
      const html = fixture('scripts-only.html');
      const text = extractPageText(html);
      expect([text.title, text.body, text.h1, text.headings, text.navigation].join('')).to.equal('');
      const out = await runApp({ html, url: 'https://app.example.com/' });
      expect(out).to.deep.equal({ categories: [], language: '', basis: 'url-and-links' });
    });

    it('a page that is only scripts still classifies from a telling URL and its links', async () => {
      const out = await runApp({
        html: fixture('scripts-only.html'),
        url: 'https://www.espn.com/nba/scores',
        links: ['https://www.espn.com/nba/standings', 'https://www.espn.com/nfl/scores'],
      });
      expect(out.basis).to.equal('url-and-links');
      expect(names(out)[0]).to.equal('sports');
    });
  });

  describe('without HTML (the screenshot was taken without html=true)', () => {
    it('classifies from the URL and the links, says so, and is less confident than with the page', async () => {
      const url = 'https://www.littlekitchentable.com/recipes/easy-banana-bread/';
      const links = ['https://www.littlekitchentable.com/recipes/breakfast/', 'https://www.littlekitchentable.com/recipes/desserts/', 'https://www.littlekitchentable.com/about/'];
      const withoutHtml = await runApp({ html: null, url, links });
      expect(withoutHtml.basis).to.equal('url-and-links');
      expect(withoutHtml.language).to.equal('');
      expect(names(withoutHtml)[0]).to.equal('food-drink');
      const withHtml = await runApp({ html: fixture('recipe.html'), url, links });
      expect(withHtml.basis).to.equal('html');
      expect(withoutHtml.categories[0]?.score).to.be.below(withHtml.categories[0]?.score as number);
    });

    it('a shop: many links to products and the cart point to shopping', async () => {
      const links = ['/products/a', '/products/b', '/products/c', '/products/d', '/cart', '/checkout'].map((p) => `https://boutique-nova.example/${p.slice(1)}`);
      const out = await runApp({ html: null, url: 'https://boutique-nova.example/', links });
      expect(names(out)[0]).to.equal('shopping');
    });

    it('known hosts and host suffixes: a .gov site, an Amazon product, Wikipedia', async () => {
      expect(names(await runApp({ html: null, url: 'https://www.irs.gov/forms-instructions' }))[0]).to.equal('government-politics');
      expect(names(await runApp({ html: null, url: 'https://www.amazon.co.uk/Echo-Dot-5th-Gen/dp/B09B8V1LZ3' }))[0]).to.equal('shopping');
      expect(names(await runApp({ html: null, url: 'https://fr.wikipedia.org/wiki/Pain_aux_bananes' }))[0]).to.equal('reference');
    });

    it('a URL that says nothing gives an empty list', async () => {
      const out = await runApp({ html: null, url: 'https://www.example.com/', links: ['https://www.example.com/about'] });
      expect(out).to.deep.equal({ categories: [], language: '', basis: 'url-and-links' });
    });
  });

  describe('output and settings', () => {
    it('scores are 0..1 with 3 decimals, best first, names from the taxonomy', async () => {
      const out = await runApp({ html: fixture('news-article.html'), url: 'https://www.northernherald.co.uk/news/', settings: { max_categories: 10, min_score: 0 } });
      expect(out.categories.length).to.be.above(3);
      for (const [i, c] of out.categories.entries()) {
        expect(CATEGORY_NAMES).to.include(c.name);
        expect(c.score).to.be.within(0, 1);
        expect(Math.round(c.score * 1000) / 1000).to.equal(c.score);
        if (i > 0) expect(c.score).to.be.at.most(out.categories[i - 1]?.score as number);
      }
    });

    it('max_categories and min_score limit the list', async () => {
      const html = fixture('news-article.html');
      const url = 'https://www.northernherald.co.uk/news/';
      expect((await runApp({ html, url, settings: { max_categories: 1, min_score: 0 } })).categories).to.have.length(1);
      const strict = await runApp({ html, url, settings: { max_categories: 10, min_score: 0.5 } });
      expect(names(strict)).to.deep.equal(['news']);
      expect((await runApp({ html, url, settings: { min_score: 1 } })).categories).to.deep.equal([]);
    });

    it('uses the record links, and the page anchors when the record has none', async () => {
      const html = '<html><body><p>Welcome.</p><a href="/products/a">A</a><a href="/products/b">B</a><a href="/products/c">C</a><a href="/cart">Cart</a></body></html>';
      const fromAnchors = await runApp({ html, url: 'https://www.example.com/' });
      expect(names(fromAnchors)).to.include('shopping');
      const fromRecord = await runApp({ html, url: 'https://www.example.com/', links: ['https://www.example.com/about'] });
      expect(names(fromRecord)).to.not.include('shopping');
    });
  });

  describe('HTML to text', () => {
    it('keeps title, meta description and keywords, h1, other headings, boilerplate and body apart', () => {
      const page = extractPageText(`<!doctype html><html lang="de-AT"><head><title>T &amp; T</title>
        <meta name="description" content="The description"><meta property="og:description" content="The description">
        <meta name="keywords" content="a, b"></head><body><header><a href="/">Site</a><h1>Main <em>heading</em></h1></header>
        <nav><a href="/x">Menu</a></nav><h2>Sub</h2><p>Body text</p><aside><h3>Most read</h3></aside><footer>Footer</footer></body></html>`);
      expect(page).to.include({ title: 'T & T', description: 'The description', keywords: 'a, b', h1: 'Main heading', headings: 'Sub', body: 'Body text', declaredLanguage: 'de-AT' });
      expect(page.navigation).to.equal('Site Menu Most read Footer');
      expect(page.links).to.deep.equal(['/', '/x']);
    });

    it('drops scripts, styles, noscript, template, svg, comments, selects and textareas, with what is inside them', () => {
      const page = extractPageText(`<p>one</p><script>var a = "<p>x</p>";</script><style>p{}</style><noscript>enable JS</noscript>
        <template><p>tpl</p></template><svg><title>icon</title><text>svg</text></svg><!-- <p>comment</p> --><p>two</p>
        <select><option>Albania</option></select><textarea>typed</textarea><SCRIPT type="module">x</SCRIPT ><p>three</p>`);
      expect(page.body).to.equal('one two three');
      expect(page.title).to.equal('');
    });

    it('`<script/>` is not self-closing in HTML, `<svg/>` is; an unclosed script hides the rest of the page', () => {
      expect(extractPageText('<p>a</p><script src="x.js"/>hidden</script><p>b</p>').body).to.equal('a b');
      expect(extractPageText('<p>a</p><svg/><p>b</p>').body).to.equal('a b');
      expect(extractPageText('<p>a</p><script>var never_closed = 1; <p>b</p>').body).to.equal('a');
    });

    it('separates words at block tags but not inside inline formatting; a stray < is text', () => {
      expect(extractPageText('<ul><li>News</li><li>Sports</li></ul><p><b>Re</b>cipe</p><p>1 < 2</p>').body).to.equal('News Sports Recipe 1 < 2');
    });

    it('reads attributes with either quote, unquoted or with > inside quotes', () => {
      const page = extractPageText(`<html LANG='fr'><a title="a > b" href=/one>x</a> <a href='/two'>y</a><meta name=keywords content="k1">`);
      expect(page.declaredLanguage).to.equal('fr');
      expect(page.links).to.deep.equal(['/one', '/two']);
      expect(page.body).to.equal('x y');
      expect(page.keywords).to.equal('k1');
    });

    it('collects structured types: JSON-LD (arrays and graphs, even invalid JSON), microdata, og:type and adult ratings', () => {
      const page = extractPageText(`<head><meta property="og:type" content="Product"><meta name="rating" content="RTA-5042-1996-1400-1577-RTA">
        <script type="application/ld+json">{"@graph":[{"@type":["Recipe","HowTo"]},{"@type":"schema:NewsArticle"}], broken</script></head>
        <body><div itemscope itemtype="https://schema.org/Car"></div></body>`);
      expect(page.structuredTypes).to.deep.equal(['og:product', 'rating:adult', 'Recipe', 'HowTo', 'NewsArticle', 'Car']);
    });

    it('decodes the common entities, numeric references and accented letters', () => {
      expect(decodeEntities('caf&eacute; &Uuml;ber &ntilde; gar&ccedil;on &aring; &#233;&#xE9; &amp; &lt;b&gt; &nbsp;&hellip;&mdash;&rsquo;&laquo;&raquo;&euro;')).to.equal(
        'café Über ñ garçon å éé & <b> \u00a0…—’«»€',
      );
      expect(decodeEntities('&copy2024 &amp &unknown; &#0; &#x110000; &#146;')).to.equal('©2024 & &unknown; \ufffd \ufffd ’');
    });

    it('caps what it reads: an unclosed title does not become a 2 MB title', () => {
      const page = extractPageText(`<title>${'word '.repeat(400_000)}`);
      expect(page.title.length).to.be.at.most(2000);
    });
  });

  describe('tokenizing and language', () => {
    it('normalises case, accents, ligatures and full-width letters; splits on apostrophes and hyphens', () => {
      expect(normalizeText('ÉLECTION Straße Œuvre ＡＢＣ Łódź')).to.equal('election strasse oeuvre abc lodz');
      expect(tokenize("L'Économie, e-commerce; l’été 2024").words).to.deep.equal(['l', 'economie', 'e', 'commerce', 'l', 'ete', '2024']);
    });

    it('keeps Chinese/Japanese runs apart (matched by substring) and keeps the Japanese voicing marks', () => {
      const t = tokenize('京都のホテル予約 Booking ガイド');
      expect(t.words).to.deep.equal(['booking']);
      expect(t.cjk).to.deep.equal(['京都のホテル予約', 'ガイド']);
    });

    it('takes the declared language when it is a two-letter code', () => {
      expect(languageFromTag('en-GB')).to.equal('en');
      expect(languageFromTag('zh-Hant-TW')).to.equal('zh');
      expect(languageFromTag('iw')).to.equal('he');
      expect(languageFromTag('und')).to.equal('');
      expect(languageFromTag('x-default')).to.equal('');
      expect(detectLanguage('fr-CA', 'The text is English but the page says French.')).to.equal('fr');
      expect(detectLanguage('und', 'The council said that the new road will be open to traffic from the end of the month.')).to.equal('en');
    });

    const samples: Record<string, string> = {
      en: 'The council said that the new road will be open to traffic from the end of the month, and that it has been built with the help of local people.',
      fr: "Le conseil a indiqué que la nouvelle route sera ouverte à la circulation à la fin du mois et qu'elle a été construite avec l'aide des habitants.",
      de: 'Der Rat teilte mit, dass die neue Straße ab Ende des Monats für den Verkehr freigegeben wird und mit Hilfe der Anwohner gebaut wurde.',
      es: 'El consejo dijo que la nueva carretera estará abierta al tráfico a partir del final del mes y que se ha construido con la ayuda de los vecinos.',
      it: "Il consiglio ha detto che la nuova strada sarà aperta al traffico dalla fine del mese e che è stata costruita con l'aiuto degli abitanti.",
      pt: 'O conselho disse que a nova estrada estará aberta ao trânsito a partir do final do mês e que foi construída com a ajuda dos moradores.',
      nl: 'De gemeente zei dat de nieuwe weg vanaf het einde van de maand open is voor verkeer en dat deze met hulp van de bewoners is gebouwd.',
      pl: 'Rada poinformowała, że nowa droga zostanie otwarta dla ruchu pod koniec miesiąca i że została zbudowana przy pomocy mieszkańców.',
      sv: 'Kommunen sade att den nya vägen kommer att vara öppen för trafik från slutet av månaden och att den har byggts med hjälp av de boende.',
      ja: '東京都は新しい道路が今月末から通行できるようになると発表しました。',
      zh: '市政府表示，新道路将于本月底开放通行，并在当地居民的帮助下建成。',
      ko: '시의회는 새 도로가 이달 말부터 개통된다고 밝혔습니다.',
      ru: 'Совет сообщил, что новая дорога будет открыта для движения в конце месяца.',
      uk: 'Рада повідомила, що нова дорога буде відкрита для руху наприкінці місяця, і її збудували за допомогою мешканців.',
      el: 'Το συμβούλιο ανακοίνωσε ότι ο νέος δρόμος θα ανοίξει στο τέλος του μήνα.',
      ar: 'قال المجلس إن الطريق الجديد سيفتح أمام حركة المرور في نهاية الشهر.',
      he: 'המועצה אמרה שהכביש החדש ייפתח לתנועה בסוף החודש.',
    };
    for (const [language, text] of Object.entries(samples)) {
      it(`detects ${language} from the text when nothing is declared`, () => {
        expect(detectLanguage('', text)).to.equal(language);
      });
    }

    it("answers '' when the text has too little grammar to tell", () => {
      expect(detectLanguage('', 'iPhone 15 Pro Max 256GB')).to.equal('');
      expect(detectLanguage('', '')).to.equal('');
    });
  });

  describe('the method', () => {
    it('saturates: the tenth hit of a word adds far less than the first, and there is a ceiling', () => {
      expect(saturate(1)).to.equal(1);
      expect(saturate(2) - saturate(1)).to.be.below(0.7);
      expect(saturate(1000)).to.equal(saturate(100));
    });

    it('one word repeated 500 times does not beat a page about something else', () => {
      const html = `<html lang="en"><head><title>Banana bread recipe</title></head><body><h1>Banana bread</h1><p>${'football '.repeat(500)}</p>
        <p>Preheat the oven. Mix the flour, sugar, butter and eggs, then bake for 60 minutes.</p></body></html>`;
      const out = categorize({ html, url: 'https://www.example.com/', finalUrl: '', links: [] }, { maxCategories: 3, minScore: 0.15 });
      expect(out.categories[0]?.name).to.equal('food-drink');
      expect(out.categories[0]?.score).to.be.above((out.categories[1]?.score ?? 0) * 2);
    });

    it('a portal that touches every topic once is confident about none', () => {
      const html =
        '<html lang="en"><head><title>Example Portal - Home</title></head><body><nav>News Sport Weather Shopping Travel Games Movies Music Jobs Cars Property Health</nav><p>Welcome to Example Portal. Sign in to your email.</p></body></html>';
      expect(categorize({ html, url: 'https://www.example-portal.com/', finalUrl: '', links: [] }, { maxCategories: 3, minScore: 0.15 }).categories).to.deep.equal([]);
    });

    it('English keywords that mean something else in the page language are not read as English', () => {
      // French: "pain" is bread (not health), "j'ai" is not AI, "car" is "because" (not automotive).
      const html = `<html lang="fr"><body><p>J'ai acheté du pain, car la boulangerie ferme tôt. Le pain de campagne est délicieux avec du beurre.</p></body></html>`;
      const out = categorize({ html, url: 'https://www.example.fr/', finalUrl: '', links: [] }, { maxCategories: 10, minScore: 0 });
      expect(names(out as Output)).to.not.include.members(['health', 'technology', 'automotive']);
      expect(out.categories[0]?.name).to.equal('food-drink');
    });

    it('German, Spanish and Russian pages use their own keywords (inflected Russian words too)', () => {
      const run = (html: string): string | undefined => categorize({ html, url: 'https://www.example.com/', finalUrl: '', links: [] }, { maxCategories: 3, minScore: 0.15 }).categories[0]?.name;
      expect(run('<html><body><p>Der FC Bayern hat das Spiel gegen Dortmund gewonnen. Die Mannschaft von Trainer Kompany führt die Tabelle der Bundesliga an.</p></body></html>')).to.equal('sports');
      expect(run('<html><body><h1>Tortilla de patatas</h1><p>Esta es la receta tradicional. Los ingredientes son muy sencillos: patatas, huevos, cebolla y aceite.</p></body></html>')).to.equal(
        'food-drink',
      );
      expect(run('<html><body><p>Сборная России по футболу сыграла вничью в товарищеском матче. Главный тренер остался доволен игрой команды.</p></body></html>')).to.equal('sports');
    });

    it('host hints: .gov matches nasa.gov and www.gov.uk; 3-letter words must be whole labels; .va is not va.gov', () => {
      const evidenceFor = (url: string, category: string): number => pageUrlEvidence([parseUrl(url) as UrlParts])[CATEGORY_NAMES.indexOf(category)] as number;
      expect(evidenceFor('https://www.nasa.gov/', 'government-politics')).to.be.above(0);
      expect(evidenceFor('https://www.gov.uk/', 'government-politics')).to.be.above(0);
      expect(evidenceFor('https://www.essex.gov.uk/', 'adult')).to.equal(0);
      expect(evidenceFor('https://www.va.gov/', 'religion')).to.equal(0);
      expect(evidenceFor('https://www.amazon.de/', 'shopping')).to.be.above(0);
      expect(evidenceFor('https://www.notamazon.example/', 'shopping')).to.equal(0);
    });
  });

  describe('the taxonomy', () => {
    it('is a fixed set of 20–25 categories with unique, stable names', () => {
      expect(TAXONOMY.length).to.be.within(20, 25);
      expect(new Set(CATEGORY_NAMES).size).to.equal(CATEGORY_NAMES.length);
      for (const name of CATEGORY_NAMES) expect(name).to.match(/^[a-z]+(?:-[a-z]+)*$/);
    });

    it('every category has English, French, German and Spanish keywords, path and host hints', () => {
      for (const c of TAXONOMY) {
        for (const language of ['en', 'fr', 'de', 'es'] as const) expect(c.keywords[language]?.[3] ?? c.keywords[language]?.[2], `${c.name}/${language}`).to.not.be.empty;
        expect(c.paths, c.name).to.not.be.empty;
        expect(c.hosts, c.name).to.not.be.empty;
        expect(c.description, c.name).to.not.equal('');
      }
    });

    it('compiles (every keyword is well formed) and every false friend is an English keyword', () => {
      const english = allTerms()
        .filter((t) => t.weights.has('en'))
        .map((t) => t.text);
      for (const words of Object.values(ENGLISH_FALSE_FRIENDS)) {
        for (const w of words ?? [])
          expect(
            english.some((t) => t === w || (t.endsWith('*') && w.startsWith(t.slice(0, -1)))),
            w,
          ).to.equal(true);
      }
    });

    it('the README documents every category', () => {
      const readme = readFileSync(repoPath('plugins/webcategorize/README.md'), 'utf8');
      for (const name of CATEGORY_NAMES) expect(readme, name).to.include(`\`${name}\``);
    });
  });
});
