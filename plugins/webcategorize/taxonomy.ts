/**
 * The fixed taxonomy webcategorize classifies into: 25 top-level categories in the spirit of the IAB
 * Content Taxonomy (each names its nearest IAB 1.0 tier-1 category), each with weighted keywords in
 * several languages, URL path hints, host hints and schema.org / Open Graph types. README.md beside this
 * file documents the method; this file is the data. Changing a category's `name` changes the API's output.
 *
 * How to read an entry:
 *  - keywords: per language, three weights (3 = decisive for the topic, 2 = typical, 1 = weak or ambiguous).
 *    Written as usual (accents, capitals): they are normalised on load like the page text (tokenize.ts).
 *      `word`      the word, or the word plus a final `s` (`recipe` matches `recipes`);
 *      `word*`     any word starting with `word` (at least 4 letters before the `*`);
 *      `two words` the words in sequence (a phrase);
 *      Chinese / Japanese terms are found as substrings (those scripts have no spaces).
 *    English keywords are matched on every page (menus and buttons are often English); another language's
 *    only on pages in that language, or on every page when the language is unknown.
 *  - paths: words of a URL path (the page's and its links'): `news` matches `/news/`, `/world-news/x`;
 *    `product*` matches `/products/`; a hyphenated hint (`real-estate`) must be a whole path segment.
 *  - pathPatterns: regular expressions tried on the path and query (`/dp/B0…` is an Amazon product).
 *  - hosts: `.gov` → a host label (`nasa.gov`, `www.gov.uk`); `name.tld` → that domain or its subdomains,
 *    `name.*` under any TLD (`amazon.*`); a bare word → found inside the host name (`news` in `foxnews.com`;
 *    words of 3 letters or fewer must be a whole label part, so `sex` does not match `essex.gov.uk`).
 *  - types: schema.org `@type`s from JSON-LD or microdata (`Recipe`), `og:<og:type>` (`og:product`), and
 *    `rating:adult` (an adult rating meta tag).
 */

export type KeywordLanguage = 'en' | 'fr' | 'de' | 'es' | 'it' | 'pt' | 'nl' | 'ja' | 'zh' | 'ru';
export const KEYWORD_LANGUAGES: readonly KeywordLanguage[] = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'ja', 'zh', 'ru'];

export type KeywordWeight = 1 | 2 | 3;
export type WeightedTerms = Partial<Record<KeywordWeight, readonly string[]>>;

export interface CategoryDefinition {
  /** The stable id returned in output_data (`news`, `food-drink`…). */
  name: string;
  label: string;
  /** What belongs here, in one line. */
  description: string;
  /** The nearest IAB Content Taxonomy 1.0 tier-1 category (or sub-category), for orientation only. */
  iab: string;
  keywords: Partial<Record<KeywordLanguage, WeightedTerms>>;
  paths: readonly string[];
  pathPatterns?: readonly RegExp[];
  hosts: readonly string[];
  types: readonly string[];
}

export const TAXONOMY: readonly CategoryDefinition[] = [
  {
    name: 'news',
    label: 'News',
    description: 'News and current events: articles, headlines, live coverage, newspapers and broadcasters.',
    iab: 'IAB12 News',
    keywords: {
      en: {
        3: ['news', 'breaking news', 'latest news', 'headlines', 'newsroom', 'journalist', 'journalists', 'reporter', 'reporters', 'correspondent*', 'live updates', 'editorial', 'news agency'],
        2: ['reported', 'reporting', 'according to', 'officials said', 'told reporters', 'breaking', 'exclusive', 'coverage', 'press conference', 'opinion', 'analysis', 'investigation', 'updated', 'published', 'world news', 'local news'],
        1: ['said', 'story', 'stories', 'today', 'yesterday', 'statement', 'report', 'reports', 'newsletter', 'world'],
      },
      fr: {
        3: ['actualité*', 'actu', 'actus', 'journaliste*', 'rédaction', 'à la une', 'dernières infos', 'infos', 'dépêche*', 'reportage*', 'quotidien', 'journal'],
        2: ['publié le', 'mis à jour', 'selon', 'a déclaré', 'envoyé spécial', 'éditorial', 'en direct', 'abonnés', 'article réservé'],
      },
      de: {
        3: ['nachricht*', 'schlagzeilen', 'journalist*', 'redaktion', 'eilmeldung', 'aktuelles', 'meldung*', 'zeitung'],
        2: ['berichtet*', 'laut', 'sagte', 'veröffentlicht', 'aktualisiert', 'korrespondent*', 'liveticker'],
      },
      es: {
        3: ['noticias', 'noticia', 'periodista*', 'titulares', 'última hora', 'redacción', 'actualidad', 'periódico'],
        2: ['según', 'informó', 'publicado', 'actualizado', 'corresponsal*', 'en directo', 'en vivo'],
      },
      it: { 3: ['notizie', 'notizia', 'giornalista', 'ultime notizie', 'cronaca', 'redazione', 'giornale'], 2: ['secondo', 'aggiornato'] },
      pt: { 3: ['notícias', 'notícia', 'jornalista', 'últimas notícias', 'redação', 'jornal'], 2: ['segundo', 'atualizado'] },
      nl: { 3: ['nieuws', 'journalist', 'redactie', 'laatste nieuws', 'krant'] },
      ja: { 3: ['ニュース', '速報', '記者', '新聞', '報道'], 2: ['配信', '取材'] },
      zh: { 3: ['新闻', '新聞', '记者', '快讯', '报道'], 2: ['头条'] },
      ru: { 3: ['новост*', 'журналист*'] },
    },
    paths: ['news', 'article', 'articles', 'story', 'stories', 'breaking', 'headlines', 'actualite*', 'actu', 'nachrichten', 'noticias', 'notizie', 'nieuws', 'noticia*'],
    pathPatterns: [/\/(?:19|20)\d{2}\/(?:0?[1-9]|1[0-2])\/(?:\d{1,2}\/)?[a-z0-9-]{12,}/i],
    hosts: ['news', 'nachrichten', 'noticias', 'notizie', 'nieuws', 'herald', 'gazette', 'tribune', 'bbc.co.uk', 'bbc.com', 'cnn.com', 'reuters.com', 'apnews.com', 'nytimes.com', 'theguardian.com', 'washingtonpost.com', 'lemonde.fr', 'lefigaro.fr', 'liberation.fr', 'spiegel.de', 'zeit.de', 'faz.net', 'sueddeutsche.de', 'elpais.com', 'elmundo.es', 'corriere.it', 'repubblica.it', 'aljazeera.com', 'nhk.or.jp', 'asahi.com'],
    types: ['NewsArticle', 'ReportageNewsArticle', 'AnalysisNewsArticle', 'OpinionNewsArticle', 'BackgroundNewsArticle', 'LiveBlogPosting', 'NewsMediaOrganization'],
  },
  {
    name: 'sports',
    label: 'Sports',
    description: 'Sports news, results, teams, athletes, leagues and competitions.',
    iab: 'IAB17 Sports',
    keywords: {
      en: {
        3: ['sport', 'sports', 'football', 'soccer', 'basketball', 'baseball', 'tennis', 'golf', 'hockey', 'rugby', 'cricket', 'athlete*', 'olympic*', 'championship*', 'tournament*', 'league', 'nba', 'nfl', 'mlb', 'nhl', 'fifa', 'uefa', 'premier league', 'world cup', 'formula 1', 'cycling', 'marathon', 'boxing', 'ufc'],
        2: ['match', 'matches', 'goal', 'goals', 'scored', 'coach', 'team', 'player', 'players', 'season', 'playoff*', 'stadium', 'striker', 'quarterback', 'referee', 'fixtures', 'standings', 'score', 'victory', 'defeat', 'kick-off', 'halftime'],
        1: ['game', 'fans', 'club', 'race', 'final', 'cup', 'medal*', 'training', 'win', 'wins'],
      },
      fr: {
        3: ['sport', 'sports', 'football', 'foot', 'rugby', 'tennis', 'cyclisme', 'championnat', 'ligue 1', 'coupe du monde', 'joueur*', 'entraîneur*', 'athlète*'],
        2: ['match', 'équipe', 'saison', 'stade', 'victoire', 'défaite', 'classement'],
      },
      de: {
        3: ['sport', 'fußball*', 'bundesliga', 'tennis', 'handball', 'spieler*', 'trainer', 'weltmeisterschaft', 'meisterschaft', 'olympia'],
        2: ['spiel', 'tor', 'tore', 'mannschaft', 'saison', 'stadion', 'sieg', 'niederlage', 'tabelle'],
      },
      es: {
        3: ['deporte*', 'fútbol', 'baloncesto', 'tenis', 'liga', 'jugador*', 'entrenador*', 'campeonato', 'mundial'],
        2: ['partido', 'gol', 'goles', 'equipo', 'temporada', 'estadio', 'victoria', 'derrota'],
      },
      it: { 3: ['calcio', 'sport', 'serie a', 'giocatore', 'giocatori', 'campionato'], 2: ['partita', 'squadra', 'allenatore'] },
      pt: { 3: ['futebol', 'esporte*', 'desporto', 'jogador*', 'campeonato'], 2: ['partida', 'equipe', 'golo', 'gol'] },
      nl: { 3: ['voetbal', 'sport', 'eredivisie', 'speler*'], 2: ['wedstrijd', 'ploeg'] },
      ja: { 3: ['スポーツ', 'サッカー', '野球', '試合', '選手', 'テニス', 'ゴルフ'], 2: ['優勝', 'リーグ'] },
      zh: { 3: ['体育', '足球', '篮球', '比赛', '球员', '运动员'], 2: ['冠军', '联赛'] },
      ru: { 3: ['спорт*', 'футбол*', 'хоккей*', 'матч*', 'чемпионат*'], 2: ['тренер*', 'сборн*'], 1: ['команд*'] },
    },
    paths: ['sport', 'sports', 'football', 'soccer', 'nba', 'nfl', 'basketball', 'tennis', 'golf', 'rugby', 'scores', 'fixtures', 'standings', 'deportes', 'fussball', 'calcio', 'futebol'],
    hosts: ['sport', 'football', 'soccer', 'espn.com', 'skysports.com', 'lequipe.fr', 'marca.com', 'as.com', 'kicker.de', 'gazzetta.it', 'nba.com', 'nfl.com', 'fifa.com', 'uefa.com', 'eurosport.*', 'olympics.com'],
    types: ['SportsEvent', 'SportsTeam', 'SportsOrganization', 'SportsClub', 'SportsActivityLocation', 'StadiumOrArena'],
  },
  {
    name: 'technology',
    label: 'Technology & Computing',
    description: 'Software, hardware, the internet, programming, gadgets and technology news.',
    iab: 'IAB19 Technology & Computing',
    keywords: {
      en: {
        3: ['software', 'technology', 'tech', 'computer', 'computing', 'smartphone', 'laptop', 'programming', 'developer', 'developers', 'artificial intelligence', 'machine learning', 'cloud computing', 'cybersecurity', 'open source', 'api', 'javascript', 'typescript', 'python', 'linux', 'android', 'ios', 'processor', 'semiconductor*', 'algorithm*', 'database', 'github', 'source code'],
        2: ['code', 'coding', 'device', 'devices', 'digital', 'internet', 'gadget*', 'hardware', 'server', 'servers', 'network', 'data', 'chip', 'chips', 'gpu', 'cpu', 'robot*', 'encryption', 'browser', 'download', 'framework', 'documentation', 'repository', 'install', 'installation', 'ai', 'startup'],
        1: ['app', 'apps', 'tools', 'users', 'platform', 'web', 'wifi', 'bluetooth', 'battery', 'version', 'online'],
      },
      fr: {
        3: ['logiciel*', 'technologie*', 'informatique', 'ordinateur*', 'intelligence artificielle', 'numérique', 'développeur*', 'programmation'],
        2: ['données', 'réseau*', 'application*'],
      },
      de: {
        3: ['software', 'technologie*', 'computer', 'informatik', 'künstliche intelligenz', 'programmierung', 'entwickler*', 'rechner'],
        2: ['daten', 'netzwerk*', 'digital*', 'anwendung*'],
      },
      es: {
        3: ['tecnología', 'software', 'ordenador*', 'computadora*', 'inteligencia artificial', 'informática', 'programación', 'desarrollador*'],
        2: ['datos', 'aplicación', 'aplicaciones', 'digital'],
      },
      it: { 3: ['tecnologia', 'informatica', 'intelligenza artificiale'] },
      pt: { 3: ['tecnologia', 'computador*', 'inteligência artificial', 'informática'] },
      nl: { 3: ['technologie', 'computer*', 'kunstmatige intelligentie'] },
      ja: { 3: ['テクノロジー', 'ソフトウェア', 'プログラミング', '人工知能', 'スマートフォン', 'パソコン', 'エンジニア'], 2: ['アプリ', 'データ', 'クラウド'] },
      zh: { 3: ['科技', '软件', '编程', '人工智能', '手机', '电脑', '程序员'], 2: ['数据', '互联网'] },
      ru: { 3: ['технолог*', 'программирован*', 'компьютер*'], 2: ['программ*'] },
    },
    paths: ['tech', 'technology', 'software', 'developer*', 'docs', 'api', 'download*', 'gadgets', 'programming', 'computing'],
    hosts: ['.dev', 'tech', 'software', 'github.com', 'gitlab.com', 'stackoverflow.com', 'techcrunch.com', 'theverge.com', 'wired.com', 'arstechnica.com', 'heise.de', 'mozilla.org', 'npmjs.com', 'microsoft.com', 'apple.com'],
    types: ['SoftwareApplication', 'SoftwareSourceCode', 'MobileApplication', 'WebApplication', 'TechArticle', 'APIReference'],
  },
  {
    name: 'business-finance',
    label: 'Business & Finance',
    description: 'Business, companies, markets, the economy, banking, investing, insurance and personal finance.',
    iab: 'IAB3 Business / IAB13 Personal Finance',
    keywords: {
      en: {
        3: ['finance', 'financial', 'investing', 'investment', 'investments', 'investor', 'investors', 'stock market', 'stocks', 'economy', 'economic', 'banking', 'bank', 'loan', 'loans', 'credit card', 'insurance', 'revenue', 'earnings', 'inflation', 'interest rate', 'interest rates', 'cryptocurrency', 'bitcoin', 'dividend*', 'portfolio', 'nasdaq', 'dow jones', 'accounting', 'fintech', 'shareholder*'],
        2: ['business', 'market', 'markets', 'company', 'companies', 'corporate', 'funding', 'startup', 'budget', 'savings', 'retirement', 'pension', 'quarterly', 'forecast', 'analyst', 'analysts', 'fund', 'trading', 'currency', 'exchange rate', 'tax', 'taxes', 'profit', 'profits', 'mortgage', 'ceo', 'entrepreneur*', 'shares'],
        1: ['industry', 'growth', 'money', 'costs', 'management', 'strategy', 'billion', 'million'],
      },
      fr: {
        3: ['finance*', 'économie', 'économique', 'bourse', 'banque*', 'investissement*', 'impôt*', 'crédit', 'assurance*', 'chiffre d affaires'],
        2: ['entreprise*', 'marché*', 'placement*', 'actionnaire*'],
      },
      de: {
        3: ['finanz*', 'wirtschaft*', 'börse', 'aktie*', 'bank', 'banken', 'investition*', 'steuer*', 'versicherung*', 'umsatz', 'geldanlage'],
        2: ['unternehmen', 'markt', 'märkte'],
      },
      es: {
        3: ['finanzas', 'financiero', 'economía', 'económico', 'bolsa', 'banco', 'bancos', 'inversión', 'inversiones', 'impuesto*', 'seguro*', 'crédito'],
        2: ['empresa*', 'mercado*'],
      },
      it: { 3: ['finanza', 'economia', 'borsa', 'banca', 'investimenti'], 2: ['azienda', 'mercati'] },
      pt: { 3: ['finanças', 'economia', 'banco', 'investimento*'], 2: ['empresa*', 'mercado*'] },
      nl: { 3: ['financiën', 'economie', 'beurs', 'bank', 'beleggen'], 2: ['bedrijf*'] },
      ja: { 3: ['経済', '金融', '株価', '投資', '銀行'], 2: ['ビジネス', '決算', '企業'] },
      zh: { 3: ['经济', '金融', '股市', '投资', '银行', '财经'], 2: ['企业', '股票'] },
      ru: { 3: ['экономи*', 'финанс*', 'банк*', 'бизнес*'] },
    },
    paths: ['business', 'finance', 'markets', 'money', 'economy', 'invest*', 'banking', 'loans', 'insurance', 'economie', 'wirtschaft', 'finanzen', 'economia', 'finanzas', 'bourse', 'stocks'],
    hosts: ['bank', 'finance', 'invest', 'capital', 'money', 'insurance', 'trading', 'crypto', 'bloomberg.com', 'ft.com', 'wsj.com', 'cnbc.com', 'forbes.com', 'marketwatch.com', 'investopedia.com', 'lesechos.fr', 'handelsblatt.com', 'expansion.com', 'morningstar.com'],
    types: ['FinancialProduct', 'BankOrCreditUnion', 'FinancialService', 'InvestmentOrDeposit', 'LoanOrCredit', 'InsuranceAgency', 'AccountingService', 'ExchangeRateSpecification'],
  },
  {
    name: 'shopping',
    label: 'Shopping',
    description: 'Online shops and product pages: prices, carts, checkout, deals and retailers.',
    iab: 'IAB22 Shopping',
    keywords: {
      en: {
        3: ['add to cart', 'add to basket', 'add to bag', 'buy now', 'shopping cart', 'checkout', 'free shipping', 'in stock', 'out of stock', 'order now', 'wishlist', 'customer reviews', 'sku', 'free delivery', 'shop now'],
        2: ['price', 'sale', 'discount*', 'coupon*', 'shop', 'store', 'shipping', 'product', 'cart', 'basket', 'buy', 'deal', 'deals', 'offer', 'offers', 'size', 'sizes', 'quantity', 'qty', 'warranty', 'retailer*', 'bestseller*', 'new arrivals', 'gift card', 'clearance', 'shopping', 'returns'],
        1: ['order', 'orders', 'customer', 'customers', 'payment', 'pay', 'delivery', 'collection', 'catalog*', 'item', 'items', 'rating', 'reviews', 'save', 'brand', 'brands', 'color', 'colour'],
      },
      fr: {
        3: ['ajouter au panier', 'panier', 'livraison gratuite', 'acheter', 'en stock', 'soldes', 'boutique', 'commander'],
        2: ['prix', 'promo*', 'livraison', 'produit*', 'réduction', 'offre*', 'taille', 'quantité', 'avis clients'],
      },
      de: {
        3: ['in den warenkorb', 'warenkorb*', 'jetzt kaufen', 'versandkostenfrei', 'kostenloser versand', 'auf lager', 'lieferbar'],
        2: ['kaufen', 'preis', 'angebot*', 'rabatt*', 'shop', 'versand', 'lieferung', 'produkt*', 'größe', 'menge', 'bestellen', 'kundenbewertungen'],
      },
      es: {
        3: ['añadir al carrito', 'agregar al carrito', 'carrito', 'envío gratis', 'rebajas', 'comprar ahora'],
        2: ['comprar', 'precio', 'oferta*', 'descuento*', 'tienda', 'envío', 'producto*', 'talla', 'cantidad', 'pedido'],
      },
      it: { 3: ['aggiungi al carrello', 'carrello', 'spedizione gratuita'], 2: ['acquista', 'prezzo', 'offerta', 'sconto', 'negozio', 'prodotto'] },
      pt: { 3: ['adicionar ao carrinho', 'carrinho', 'frete grátis'], 2: ['comprar', 'preço', 'oferta*', 'desconto*', 'loja', 'produto*', 'entrega'] },
      nl: { 3: ['winkelwagen', 'in winkelwagen', 'gratis verzending'], 2: ['kopen', 'prijs', 'aanbieding*', 'korting', 'bestellen', 'winkel'] },
      ja: { 3: ['通販', 'カートに入れる', '買い物かご', '送料無料', '在庫', 'ショッピング', '税込'], 2: ['カート', '購入', '価格', '商品', '注文', 'セール'] },
      zh: { 3: ['购物车', '加入购物车', '包邮', '商城'], 2: ['购买', '价格', '优惠', '商品', '下单'] },
      ru: { 3: ['купить', 'корзин*', 'в корзину'], 2: ['цена', 'цены', 'магазин*', 'доставк*'] },
    },
    paths: ['shop', 'store', 'cart', 'basket', 'checkout', 'product*', 'produkt*', 'produit*', 'producto*', 'prodotto', 'collections', 'buy', 'deals', 'sale', 'warenkorb', 'panier', 'carrito', 'carrello', 'dp', 'sku', 'boutique', 'tienda', 'shopping'],
    pathPatterns: [/\/(?:dp|gp\/product)\/[a-z0-9]{10}(?:[/?]|$)/i, /[?&](?:add-to-cart|add_to_cart|variant|sku)=/i],
    hosts: ['shop', 'store', 'boutique', 'deals', 'outlet', 'amazon.*', 'ebay.*', 'etsy.com', 'walmart.com', 'target.com', 'bestbuy.com', 'aliexpress.com', 'alibaba.com', 'zalando.*', 'otto.de', 'cdiscount.com', 'fnac.com', 'rakuten.*', 'shopify.com', 'mercadolibre.*'],
    types: ['Product', 'Offer', 'AggregateOffer', 'ProductGroup', 'ProductModel', 'IndividualProduct', 'Store', 'OnlineStore', 'og:product', 'og:product.item', 'og:product.group'],
  },
  {
    name: 'travel',
    label: 'Travel',
    description: 'Travel guides, destinations, hotels, flights, holidays and tourism.',
    iab: 'IAB20 Travel',
    keywords: {
      en: {
        3: ['travel', 'hotel', 'hotels', 'flight', 'flights', 'airline*', 'airport*', 'vacation*', 'holiday', 'holidays', 'tourism', 'tourist', 'tourists', 'destination', 'destinations', 'itinerary', 'itineraries', 'resort', 'resorts', 'sightseeing', 'backpacking', 'cruise', 'cruises', 'travel guide', 'things to do', 'accommodation*', 'hostel*'],
        2: ['trip', 'trips', 'booking', 'passport', 'beach', 'beaches', 'tour', 'tours', 'luggage', 'check-in', 'per night', 'island', 'islands', 'landmark*', 'visitors', 'excursion*', 'temple', 'temples'],
        1: ['city', 'guide', 'journey', 'adventure', 'map', 'stay', 'visit', 'explore', 'rooms'],
      },
      fr: {
        3: ['voyage*', 'hôtel*', 'vacances', 'tourisme', 'touriste*', 'séjour*', 'aéroport*', 'compagnie aérienne', 'itinéraire*', 'hébergement*'],
        2: ['vol', 'vols', 'réservation*', 'plage*', 'visiter', 'excursion*', 'circuit*'],
      },
      de: {
        3: ['reise', 'reisen', 'reiseziel*', 'urlaub', 'hotel*', 'flug', 'flüge', 'flughafen', 'tourismus', 'unterkunft', 'ferien', 'sehenswürdigkeit*'],
        2: ['tourist*', 'buchen', 'strand', 'ausflug*', 'übernachtung*'],
      },
      es: {
        3: ['viaje', 'viajes', 'hotel', 'hoteles', 'vuelo*', 'vacaciones', 'turismo', 'turista*', 'aeropuerto*', 'alojamiento*', 'itinerario'],
        2: ['reserva*', 'destino*', 'playa*', 'excursión*', 'visitar'],
      },
      it: { 3: ['viaggio', 'viaggi', 'albergo', 'vacanze', 'turismo', 'volo', 'voli'] },
      pt: { 3: ['viagem', 'viagens', 'férias', 'turismo', 'voo', 'voos', 'hospedagem'] },
      nl: { 3: ['reizen', 'reis', 'vakantie', 'vlucht*', 'toerisme'] },
      ja: { 3: ['旅行', '観光', 'ホテル', '宿泊', '旅館', '航空券', 'ツアー', '温泉'], 2: ['予約', '空港', '新幹線', '名所'] },
      zh: { 3: ['旅游', '旅行', '酒店', '机票', '景点', '旅馆'], 2: ['预订', '机场'] },
      ru: { 3: ['путешеств*', 'туризм*', 'отел*', 'авиабилет*'] },
    },
    paths: ['travel', 'hotels', 'hotel', 'flights', 'flight', 'destinations', 'vacation*', 'holidays', 'trips', 'tours', 'voyage*', 'reise*', 'viajes', 'viaggi', 'tourism'],
    hosts: ['travel', 'hotel', 'trip', 'tours', 'booking', 'flight', 'voyage', 'reise', 'viaje', 'booking.com', 'expedia.*', 'tripadvisor.*', 'airbnb.*', 'hotels.com', 'kayak.*', 'skyscanner.*', 'lonelyplanet.com', 'trivago.*', 'jalan.net'],
    types: ['Hotel', 'LodgingBusiness', 'TouristAttraction', 'TouristDestination', 'TouristTrip', 'Flight', 'Trip', 'Resort', 'Hostel', 'TravelAgency', 'Airport', 'BedAndBreakfast', 'Campground', 'og:hotel'],
  },
  {
    name: 'food-drink',
    label: 'Food & Drink',
    description: 'Recipes, cooking, restaurants, cuisine, wine, beer, coffee and other drinks.',
    iab: 'IAB8 Food & Drink',
    keywords: {
      en: {
        3: ['recipe', 'ingredient*', 'cooking', 'cook time', 'prep time', 'baking', 'tablespoon*', 'teaspoon*', 'tbsp', 'tsp', 'restaurant', 'restaurants', 'cuisine', 'chef', 'dessert*', 'cocktail*', 'vegan', 'vegetarian', 'preheat', 'bakery', 'brunch'],
        2: ['menu', 'dinner', 'lunch', 'breakfast', 'wine', 'wines', 'beer', 'beers', 'coffee', 'bake', 'baked', 'oven', 'flour', 'butter', 'sugar', 'garlic', 'onion', 'onions', 'cheese', 'chicken', 'pasta', 'sauce', 'soup', 'salad', 'bread', 'cake', 'delicious', 'tasty', 'flavor*', 'flavour*', 'meal', 'meals', 'food', 'foods', 'dish', 'dishes', 'servings', 'serves', 'simmer', 'whisk', 'chopped', 'sliced', 'stir'],
        1: ['eat', 'eating', 'taste', 'drink', 'drinks', 'kitchen', 'fresh', 'sweet', 'cups', 'grams', 'salt', 'eggs'],
      },
      fr: {
        3: ['recette*', 'ingrédient*', 'cuisine', 'cuisson', 'restaurant*', 'gastronomie', 'cuillère*', 'pâtisserie*', 'préchauffer'],
        2: ['préparation', 'dessert*', 'vin', 'vins', 'farine', 'beurre', 'sucre', 'oeufs', 'plat', 'plats', 'repas', 'délicieu*', 'saveur*', 'gâteau*', 'boulangerie'],
      },
      de: {
        3: ['rezept*', 'zutaten', 'kochen', 'backen', 'esslöffel', 'teelöffel', 'restaurant*', 'zubereitung'],
        2: ['küche', 'gericht', 'gerichte', 'mehl', 'butter', 'zucker', 'eier', 'backofen', 'lecker', 'kuchen', 'wein', 'bier'],
      },
      es: {
        3: ['receta*', 'ingrediente*', 'cocinar', 'restaurante*', 'gastronomía', 'cucharada*', 'cucharadita*'],
        2: ['cocina', 'horno', 'harina', 'mantequilla', 'azúcar', 'huevos', 'plato*', 'comida*', 'delicioso', 'postre*', 'vino', 'vinos'],
      },
      it: { 3: ['ricetta', 'ricette', 'ingredienti', 'ristorante'], 2: ['cucina', 'farina', 'burro', 'zucchero', 'forno', 'cucchiai*'] },
      pt: { 3: ['receita*', 'ingrediente*', 'culinária', 'restaurante*'], 2: ['farinha', 'manteiga', 'açúcar', 'forno', 'colher*'] },
      nl: { 3: ['recept*', 'ingrediënten', 'koken', 'bakken', 'restaurant*'], 2: ['bloem', 'boter', 'suiker', 'oven'] },
      ja: { 3: ['レシピ', '料理', '材料', '作り方', 'グルメ', 'レストラン', '大さじ', '小さじ'], 2: ['食材', '調味料', '美味しい', 'おいしい', '飲食'] },
      zh: { 3: ['食谱', '菜谱', '美食', '做法', '餐厅', '食材', '烹饪'], 2: ['料理'] },
      ru: { 3: ['рецепт*', 'ингредиент*', 'ресторан*'] },
    },
    paths: ['recipe*', 'food', 'cooking', 'menu', 'restaurant*', 'recette*', 'rezept*', 'receta*', 'ricett*', 'receita*', 'wine', 'drinks', 'cocktails', 'dining'],
    hosts: ['recipe', 'food', 'cook', 'chef', 'bake', 'wine', 'recette', 'rezept', 'receta', 'cuisine', 'eats', 'restaurant', 'pizza', 'burger', 'coffee', 'cafe', 'allrecipes.com', 'foodnetwork.com', 'bbcgoodfood.com', 'marmiton.org', 'chefkoch.de', 'seriouseats.com', 'epicurious.com', 'cookpad.com', 'opentable.*', 'ubereats.com', 'doordash.com', 'giallozafferano.it'],
    types: ['Recipe', 'Restaurant', 'FoodEstablishment', 'Menu', 'MenuItem', 'CafeOrCoffeeShop', 'Bakery', 'BarOrPub', 'Winery', 'Brewery', 'FastFoodRestaurant', 'og:restaurant.restaurant', 'og:restaurant.menu'],
  },
  {
    name: 'health',
    label: 'Health & Fitness',
    description: 'Medicine, conditions and treatments, hospitals and doctors, mental health, fitness and nutrition.',
    iab: 'IAB7 Health & Fitness',
    keywords: {
      en: {
        3: ['health', 'medical', 'medicine', 'doctor', 'doctors', 'physician*', 'patient', 'patients', 'disease*', 'symptom*', 'treatment*', 'diagnosis', 'therapy', 'hospital', 'hospitals', 'clinic', 'clinics', 'vaccine*', 'cancer', 'diabetes', 'mental health', 'fitness', 'workout*', 'nutrition', 'pharmacy', 'prescription*', 'surgery', 'infection*', 'healthcare'],
        2: ['pain', 'blood', 'heart', 'weight loss', 'diet', 'exercise', 'wellness', 'sleep', 'anxiety', 'depression', 'chronic', 'dose', 'side effects', 'calorie*', 'vitamin*', 'nurse', 'nurses', 'virus', 'protein'],
        1: ['body', 'risk', 'condition', 'conditions', 'healthy', 'skin', 'care'],
      },
      fr: {
        3: ['santé', 'médical*', 'médecin*', 'médecine', 'maladie*', 'symptôme*', 'traitement*', 'hôpital', 'hôpitaux', 'patient', 'patients', 'patiente', 'soins', 'vaccin*', 'pharmacie'],
        2: ['douleur*', 'régime', 'bien-être', 'sommeil'],
      },
      de: {
        3: ['gesundheit*', 'medizin*', 'arzt', 'ärzte', 'ärztin', 'krankheit*', 'symptom*', 'behandlung*', 'krankenhaus', 'klinik*', 'patient*', 'therapie', 'impfung', 'apotheke'],
        2: ['schmerz*', 'ernährung', 'fitness'],
      },
      es: {
        3: ['salud', 'médico*', 'medicina', 'enfermedad*', 'síntoma*', 'tratamiento*', 'hospital*', 'paciente*', 'vacuna*', 'farmacia'],
        2: ['dolor', 'dieta', 'bienestar'],
      },
      it: { 3: ['salute', 'medico', 'malattia', 'sintomi', 'ospedale', 'pazienti'] },
      pt: { 3: ['saúde', 'médico*', 'doença*', 'sintoma*', 'hospital', 'tratamento*'] },
      nl: { 3: ['gezondheid', 'arts', 'ziekte*', 'ziekenhuis', 'patiënt*', 'behandeling'] },
      ja: { 3: ['健康', '医療', '病院', '病気', '症状', '治療', '医師'], 2: ['ダイエット', 'フィットネス', '薬'] },
      zh: { 3: ['健康', '医疗', '医院', '疾病', '症状', '治疗', '医生'], 2: ['药'] },
      ru: { 3: ['здоров*', 'медицин*', 'болезн*', 'врач*', 'лечени*'] },
    },
    paths: ['health', 'medical', 'medicine', 'conditions', 'symptoms', 'fitness', 'wellness', 'sante', 'gesundheit', 'salud', 'nutrition', 'diseases'],
    hosts: ['.nhs', 'health', 'medic', 'clinic', 'hospital', 'pharma', 'doctor', 'fitness', 'sante', 'gesund', 'salud', 'webmd.com', 'mayoclinic.org', 'who.int', 'healthline.com', 'medlineplus.gov', 'doctissimo.fr', 'netdoktor.de', 'cdc.gov', 'nih.gov'],
    types: ['MedicalWebPage', 'MedicalCondition', 'Drug', 'Hospital', 'Physician', 'MedicalClinic', 'MedicalOrganization', 'Pharmacy', 'ExercisePlan', 'Dentist', 'MedicalTherapy', 'ExerciseGym', 'HealthTopicContent'],
  },
  {
    name: 'education',
    label: 'Education',
    description: 'Schools, universities, courses, tutorials, teaching and learning.',
    iab: 'IAB5 Education',
    keywords: {
      en: {
        3: ['education', 'educational', 'university', 'universities', 'college', 'colleges', 'school', 'schools', 'student', 'students', 'teacher', 'teachers', 'curriculum', 'lesson', 'lessons', 'tutorial', 'tutorials', 'degree', 'degrees', 'diploma', 'admission*', 'enrollment', 'enrolment', 'scholarship*', 'campus', 'professor*', 'lecture*', 'homework', 'classroom', 'e-learning', 'online courses', 'tuition', 'undergraduate', 'phd', 'academic'],
        2: ['course', 'courses', 'learning', 'learn', 'exam', 'exams', 'faculty', 'graduate', 'syllabus', 'semester', 'certificate', 'training'],
        1: ['class', 'classes', 'study', 'program', 'programme'],
      },
      fr: {
        3: ['éducation', 'université*', 'école*', 'étudiant*', 'enseignant*', 'apprentissage', 'diplôme*', 'lycée*', 'enseignement', 'élève*', 'scolaire', 'pédagogi*'],
        2: ['cours', 'formation*', 'apprendre', 'examen*', 'professeur*', 'collège'],
      },
      de: {
        3: ['bildung', 'universität*', 'hochschule*', 'schule', 'schulen', 'schüler*', 'studium', 'lehrer*', 'unterricht', 'studiengang', 'studierende'],
        2: ['student*', 'kurs', 'kurse', 'lernen', 'ausbildung', 'prüfung*', 'abschluss'],
      },
      es: {
        3: ['educación', 'universidad*', 'escuela*', 'estudiante*', 'aprendizaje', 'enseñanza', 'alumno*', 'matrícula'],
        2: ['colegio*', 'profesor*', 'curso', 'cursos', 'aprender', 'examen*'],
      },
      it: { 3: ['istruzione', 'università', 'scuola', 'studenti', 'insegnanti'], 2: ['corso', 'corsi'] },
      pt: { 3: ['educação', 'universidade*', 'escola*', 'aluno*', 'estudante*', 'ensino'], 2: ['curso', 'cursos', 'professor*'] },
      nl: { 3: ['onderwijs', 'universiteit', 'studenten', 'leerling*', 'opleiding*'], 2: ['school', 'cursus*'] },
      ja: { 3: ['教育', '大学', '学校', '学生', '授業', '講座', '入試', '学習'], 2: ['先生'] },
      zh: { 3: ['教育', '大学', '学校', '学生', '课程', '考试', '学习'] },
      ru: { 3: ['образован*', 'университет*', 'школ*', 'студент*'], 2: ['курсы'] },
    },
    paths: ['education', 'courses', 'course', 'learn', 'learning', 'students', 'admissions', 'academics', 'school', 'tutorial*', 'lessons', 'formation*', 'cours', 'kurse', 'cursos', 'study'],
    hosts: ['.edu', '.ac', '.school', 'school', 'univ', 'college', 'academy', 'learn', 'educ', 'course', 'campus', 'tutor', 'schule', 'ecole', 'coursera.org', 'edx.org', 'khanacademy.org', 'udemy.com', 'duolingo.com', 'openclassrooms.com'],
    types: ['Course', 'CourseInstance', 'EducationalOrganization', 'CollegeOrUniversity', 'School', 'HighSchool', 'ElementarySchool', 'MiddleSchool', 'Preschool', 'LearningResource', 'EducationalOccupationalProgram', 'Quiz'],
  },
  {
    name: 'entertainment',
    label: 'Entertainment',
    description: 'Movies, television, music, celebrities, streaming, podcasts and shows.',
    iab: 'IAB1 Arts & Entertainment',
    keywords: {
      en: {
        3: ['movie', 'movies', 'film', 'films', 'cinema', 'tv show', 'tv shows', 'television', 'episode*', 'actor', 'actors', 'actress*', 'celebrit*', 'music', 'song', 'songs', 'album', 'albums', 'singer*', 'concert*', 'streaming', 'netflix', 'hollywood', 'box office', 'trailer*', 'soundtrack*', 'entertainment', 'showbiz', 'podcast*', 'lyrics', 'playlist*', 'oscar*', 'grammy', 'emmy', 'starring'],
        2: ['series', 'premiere', 'comedy', 'drama', 'band', 'bands', 'tour dates', 'cast', 'director', 'spotify', 'radio', 'anime'],
        1: ['watch', 'show', 'shows', 'tickets', 'star', 'stars', 'video', 'videos'],
      },
      fr: {
        3: ['cinéma', 'film', 'films', 'série*', 'musique', 'chanson*', 'chanteu*', 'acteur*', 'actrice*', 'concert*', 'album*', 'télévision', 'émission*', 'divertissement', 'bande-annonce'],
        2: ['people', 'spectacle*'],
      },
      de: {
        3: ['film', 'filme', 'kino', 'serie', 'serien', 'fernsehen', 'musik', 'sänger*', 'schauspieler*', 'konzert*', 'album', 'unterhaltung', 'staffel', 'promi*'],
        2: ['folge', 'folgen'],
      },
      es: {
        3: ['película*', 'cine', 'serie', 'series', 'televisión', 'música', 'canción', 'canciones', 'cantante*', 'actriz', 'concierto*', 'álbum', 'entretenimiento', 'famosos', 'episodio*'],
        2: ['actor', 'actores'],
      },
      it: { 3: ['cinema', 'film', 'musica', 'canzone', 'cantante', 'attore', 'attrice', 'spettacolo', 'televisione'] },
      pt: { 3: ['cinema', 'filme*', 'música', 'cantor*', 'ator', 'atriz', 'novela*', 'entretenimento'] },
      nl: { 3: ['film*', 'bioscoop', 'muziek', 'zanger*', 'acteur', 'televisie'] },
      ja: { 3: ['映画', 'ドラマ', 'アニメ', '音楽', '歌手', '俳優', '女優', '芸能', 'エンタメ'], 2: ['アイドル', 'テレビ', 'ライブ'] },
      zh: { 3: ['电影', '电视剧', '音乐', '歌手', '演员', '娱乐', '综艺', '明星'] },
      ru: { 3: ['кино', 'фильм*', 'сериал*', 'музык*'] },
    },
    paths: ['movies', 'movie', 'film', 'films', 'tv', 'music', 'entertainment', 'celebrity', 'celebrities', 'showbiz', 'series', 'episodes', 'cinema', 'kino', 'musique', 'musik', 'musica', 'trailers', 'podcast*'],
    hosts: ['movie', 'film', 'cinema', 'music', 'radio', 'flix', 'anime', 'lyrics', 'showbiz', 'celeb', 'imdb.com', 'netflix.com', 'rottentomatoes.com', 'spotify.com', 'hulu.com', 'disneyplus.com', 'variety.com', 'hollywoodreporter.com', 'allocine.fr', 'soundcloud.com', 'deezer.com', 'billboard.com', 'tmz.com'],
    types: ['Movie', 'TVSeries', 'TVEpisode', 'TVSeason', 'MusicAlbum', 'MusicRecording', 'MusicGroup', 'MusicPlaylist', 'MovieTheater', 'Episode', 'CreativeWorkSeason', 'BroadcastEvent', 'MusicEvent', 'ScreeningEvent', 'ComedyEvent', 'PodcastSeries', 'PodcastEpisode', 'og:video.movie', 'og:video.tv_show', 'og:video.episode', 'og:music.song', 'og:music.album', 'og:music.playlist', 'og:music.radio_station'],
  },
  {
    name: 'games',
    label: 'Video & Computer Games',
    description: 'Video games, consoles, esports, game reviews and walkthroughs, online and board games.',
    iab: 'IAB9-30 Video & Computer Games',
    keywords: {
      en: {
        3: ['video game', 'video games', 'videogame*', 'gaming', 'gamer', 'gamers', 'playstation', 'xbox', 'nintendo', 'esports', 'multiplayer', 'rpg', 'mmorpg', 'console', 'consoles', 'pc games', 'walkthrough*', 'gameplay', 'dlc', 'speedrun*', 'minecraft', 'fortnite', 'twitch', 'board game', 'board games', 'online games', 'play now', 'play free'],
        2: ['games', 'boss', 'quest', 'quests', 'level up', 'puzzle*', 'chess', 'steam', 'controller', 'achievements', 'patch notes'],
        1: ['game', 'play', 'players', 'levels', 'arcade'],
      },
      fr: { 3: ['jeu vidéo', 'jeux vidéo', 'jeux', 'gaming', 'manette'], 2: ['jeu', 'console*'] },
      de: { 3: ['videospiel*', 'computerspiel*', 'spiele', 'konsole*', 'zocken', 'gamer'], 1: ['spiel'] },
      es: { 3: ['videojuego*', 'juegos', 'consola*'], 2: ['juego', 'jugar'] },
      it: { 3: ['videogioco', 'videogiochi', 'giochi'] },
      pt: { 3: ['videogame*', 'jogos'], 2: ['jogo'] },
      nl: { 3: ['videogame*', 'spelletjes', 'games'] },
      ja: { 3: ['ゲーム', 'プレイステーション', '任天堂', '攻略'], 2: ['プレイ'] },
      zh: { 3: ['游戏', '电竞', '玩家', '手游'] },
      ru: { 3: ['видеоигр*', 'геймер*'], 2: ['игры', 'игра', 'игр'] },
    },
    paths: ['games', 'game', 'gaming', 'play', 'esports', 'walkthrough*', 'jeux', 'spiele', 'juegos', 'giochi', 'jogos'],
    hosts: ['game', 'gaming', 'jeux', 'spiele', 'esport', 'ign.com', 'gamespot.com', 'steampowered.com', 'polygon.com', 'kotaku.com', 'twitch.tv', 'itch.io', 'jeuxvideo.com', 'chess.com', 'roblox.com', 'epicgames.com', 'nintendo.*', 'playstation.com', 'xbox.com', 'miniclip.com', 'poki.com'],
    types: ['VideoGame', 'VideoGameSeries', 'Game', 'og:game', 'og:game.achievement'],
  },
  {
    name: 'arts-culture',
    label: 'Arts & Culture',
    description: 'Fine arts, museums and exhibitions, books and literature, theatre, dance, photography, heritage.',
    iab: 'IAB1 Arts & Entertainment (fine art, books & literature)',
    keywords: {
      en: {
        3: ['art', 'arts', 'artist', 'artists', 'painting', 'paintings', 'sculpture*', 'gallery', 'galleries', 'museum', 'museums', 'exhibition*', 'literature', 'novel', 'novels', 'novelist*', 'poetry', 'poem', 'poems', 'poet', 'poets', 'theatre', 'theater', 'opera', 'ballet', 'orchestra', 'symphony', 'curator*', 'artwork*', 'masterpiece*', 'contemporary art', 'fiction'],
        2: ['author', 'authors', 'book', 'books', 'dance', 'culture', 'cultural', 'photography', 'heritage', 'architecture', 'classical music', 'writer', 'writers', 'painter', 'painters'],
        1: ['history', 'collection', 'design', 'performance'],
      },
      fr: {
        3: ['artiste*', 'peinture*', 'sculpture*', 'musée*', 'exposition*', 'littérature', 'roman', 'romans', 'poésie', 'poème*', 'théâtre', 'opéra', 'patrimoine', 'écrivain*'],
        2: ['art', 'arts', 'auteur*', 'livre*', 'culture*', 'culturel*'],
      },
      de: {
        3: ['kunst', 'künstler*', 'malerei', 'skulptur*', 'museum', 'museen', 'ausstellung*', 'literatur', 'roman', 'romane', 'gedicht*', 'theater', 'oper', 'galerie*', 'schriftsteller*'],
        2: ['autor*', 'buch', 'bücher', 'kultur*'],
      },
      es: {
        3: ['arte', 'artista*', 'pintura*', 'escultura*', 'museo*', 'exposición*', 'literatura', 'novela*', 'poesía', 'poema*', 'teatro', 'ópera', 'patrimonio', 'escritor*'],
        2: ['autor*', 'libro*', 'cultura*', 'cultural*'],
      },
      it: { 3: ['arte', 'artista', 'pittura', 'museo', 'mostra', 'letteratura', 'romanzo', 'poesia', 'teatro'], 2: ['libro', 'libri', 'cultura'] },
      pt: { 3: ['arte', 'artista*', 'pintura', 'museu', 'exposição', 'literatura', 'poesia', 'teatro'], 2: ['livro*', 'cultura'] },
      nl: { 3: ['kunst', 'kunstenaar*', 'museum', 'tentoonstelling', 'literatuur', 'theater'], 2: ['boek*', 'cultuur'] },
      ja: { 3: ['美術', '芸術', '博物館', '展覧会', '文学', '小説', '作家', '絵画'], 2: ['文化', '舞台', '書籍'] },
      zh: { 3: ['艺术', '美术', '博物馆', '展览', '文学', '小说', '作家', '画家'], 2: ['文化'] },
      ru: { 3: ['искусств*', 'музе*', 'литератур*', 'выставк*'], 2: ['культур*'] },
    },
    paths: ['art', 'arts', 'culture', 'books', 'literature', 'museum', 'exhibitions', 'exhibition*', 'gallery', 'theatre', 'theater', 'poetry', 'kultur', 'cultura', 'kunst'],
    hosts: ['museum', 'gallery', 'arts', 'theatre', 'theater', 'poetry', 'opera', 'musee', 'kultur', 'louvre.fr', 'moma.org', 'tate.org.uk', 'metmuseum.org', 'goodreads.com', 'britishmuseum.org', 'poetryfoundation.org', 'artsy.net'],
    types: ['Book', 'BookSeries', 'Painting', 'Sculpture', 'VisualArtwork', 'Museum', 'ArtGallery', 'TheaterEvent', 'ExhibitionEvent', 'PerformingArtsTheater', 'DanceEvent', 'LiteraryEvent', 'og:book', 'og:books.book'],
  },
  {
    name: 'science',
    label: 'Science',
    description: 'Research and the sciences: physics, chemistry, biology, space, climate, mathematics.',
    iab: 'IAB15 Science',
    keywords: {
      en: {
        3: ['science', 'scientific', 'scientist', 'scientists', 'researchers', 'physics', 'chemistry', 'biology', 'astronomy', 'nasa', 'planet', 'planets', 'galaxy', 'galaxies', 'universe', 'quantum', 'molecule*', 'molecular', 'genetic*', 'genome', 'dna', 'evolution', 'laboratory', 'hypothesis', 'peer-reviewed', 'fossil*', 'geology', 'ecology', 'mathematics', 'theorem', 'telescope*', 'astronaut*', 'neuroscience', 'physicist*', 'biologist*', 'chemist', 'chemists'],
        2: ['research', 'space', 'climate', 'experiment', 'experiments', 'species', 'gene', 'genes', 'particle', 'particles', 'journal', 'study', 'studies', 'data', 'ecosystem*', 'orbit'],
        1: ['discovery', 'theory', 'earth', 'energy'],
      },
      fr: {
        3: ['science*', 'scientifique*', 'chercheur*', 'physique', 'chimie', 'biologie', 'astronomie', 'planète*', 'quantique', 'génétique', 'laboratoire*', 'mathématiques'],
        2: ['recherche', 'espace', 'univers', 'climat', 'espèce*', 'étude'],
      },
      de: {
        3: ['wissenschaft*', 'forscher*', 'forschung', 'physik', 'chemie', 'biologie', 'astronomie', 'weltraum', 'universum', 'genetik', 'mathematik'],
        2: ['planet*', 'klima*', 'experiment*', 'labor', 'studie'],
      },
      es: {
        3: ['ciencia*', 'científico*', 'investigador*', 'física', 'química', 'biología', 'astronomía', 'genética', 'laboratorio', 'matemáticas'],
        2: ['investigación', 'espacio', 'planeta*', 'universo', 'clima', 'experimento*', 'especie*'],
      },
      it: { 3: ['scienza', 'scienze', 'scientifico', 'ricercatori', 'fisica', 'chimica', 'biologia'], 2: ['ricerca'] },
      pt: { 3: ['ciência*', 'científico*', 'pesquisador*', 'física', 'química', 'biologia'], 2: ['pesquisa*'] },
      nl: { 3: ['wetenschap*', 'natuurkunde', 'scheikunde', 'biologie'], 2: ['onderzoek*'] },
      ja: { 3: ['科学', '物理', '化学', '生物', '宇宙', '実験', '論文'], 2: ['研究'] },
      zh: { 3: ['科学', '物理', '化学', '生物', '宇宙', '实验', '论文'], 2: ['研究'] },
      ru: { 3: ['наук*', 'ученые', 'физик*'], 2: ['исследован*'] },
    },
    paths: ['science', 'sciences', 'research', 'space', 'physics', 'biology', 'chemistry', 'climate', 'wissenschaft', 'ciencia', 'scienza'],
    hosts: ['science', 'research', 'physics', 'nasa', 'astro', 'scien', 'wissenschaft', 'nature.com', 'science.org', 'sciencedirect.com', 'arxiv.org', 'nasa.gov', 'esa.int', 'cern.ch', 'newscientist.com', 'scientificamerican.com', 'phys.org', 'plos.org', 'springer.com'],
    types: ['ScholarlyArticle', 'Dataset', 'ResearchProject', 'ResearchOrganization'],
  },
  {
    name: 'automotive',
    label: 'Automotive',
    description: 'Cars, motorcycles and other vehicles: reviews, dealers, buying, driving and maintenance.',
    iab: 'IAB2 Automotive',
    keywords: {
      en: {
        3: ['car', 'cars', 'vehicle', 'vehicles', 'automotive', 'suv', 'sedan', 'hatchback', 'pickup truck', 'horsepower', 'mpg', 'electric vehicle', 'electric vehicles', 'dealership*', 'test drive', 'motorcycle*', 'used cars', 'new cars', 'car insurance', 'torque'],
        2: ['engine', 'engines', 'ev', 'evs', 'hybrid', 'dealer', 'dealers', 'tesla', 'toyota', 'ford', 'bmw', 'volkswagen', 'mercedes', 'audi', 'honda', 'nissan', 'porsche', 'ferrari', 'transmission', 'mileage', 'tires', 'tyres', 'truck', 'trucks', 'auto', 'autos'],
        1: ['driving', 'drivers', 'fuel', 'road', 'model', 'models'],
      },
      fr: {
        3: ['voiture*', 'automobile*', 'véhicule*', 'concession*', 'berline', 'moto', 'motos', 'carburant', 'pneus'],
        2: ['moteur*', 'essai', 'électrique', 'occasion'],
      },
      de: {
        3: ['auto', 'autos', 'fahrzeug*', 'pkw', 'autohaus', 'gebrauchtwagen', 'neuwagen', 'probefahrt', 'kfz', 'elektroauto*', 'motorrad*', 'reifen', 'kraftstoff'],
        2: ['motor*', 'wagen'],
      },
      es: {
        3: ['coche', 'coches', 'automóvil*', 'vehículo*', 'concesionario*', 'motocicleta*', 'neumáticos'],
        2: ['auto', 'autos', 'motor', 'carro', 'carros', 'moto', 'conducir'],
      },
      it: { 3: ['automobile', 'veicolo', 'veicoli', 'concessionario'], 2: ['auto', 'motore', 'moto'] },
      pt: { 3: ['automóvel', 'automóveis', 'veículo*', 'concessionária'], 2: ['carro', 'carros', 'motor'] },
      nl: { 3: ['voertuig*', 'autodealer'], 2: ['auto', 'motor', 'occasion*'] },
      ja: { 3: ['自動車', '新車', '中古車', '試乗', 'バイク'], 2: ['エンジン', '燃費'] },
      zh: { 3: ['汽车', '车型', '新车', '二手车', '发动机', '试驾'] },
      ru: { 3: ['автомобил*'], 2: ['машин*'] },
    },
    paths: ['cars', 'car', 'auto', 'autos', 'automotive', 'vehicles', 'vehicle*', 'used-cars', 'new-cars', 'dealers', 'motorcycles', 'voitures', 'voiture', 'coches', 'gebrauchtwagen'],
    hosts: ['auto', 'cars', 'motor', 'voiture', 'coche', 'vehicle', 'caranddriver.com', 'motortrend.com', 'autotrader.*', 'cars.com', 'edmunds.com', 'topgear.com', 'autoscout24.*', 'mobile.de', 'kbb.com', 'caradisiac.com'],
    types: ['Car', 'Vehicle', 'Motorcycle', 'AutoDealer', 'AutoRepair', 'AutomotiveBusiness', 'MotorizedBicycle', 'BusOrCoach', 'AutoPartsStore'],
  },
  {
    name: 'real-estate',
    label: 'Real Estate',
    description: 'Homes and property for sale or rent, listings, agents, rentals and housing markets.',
    iab: 'IAB21 Real Estate',
    keywords: {
      en: {
        3: ['real estate', 'property', 'properties', 'homes for sale', 'for rent', 'apartment', 'apartments', 'condo', 'condos', 'realtor*', 'estate agent', 'estate agents', 'bedroom', 'bedrooms', 'square feet', 'sq ft', 'sqft', 'landlord*', 'tenant*', 'open house', 'floor plan', 'floor plans', 'zillow'],
        2: ['rent', 'rental', 'rentals', 'listing', 'listings', 'mortgage', 'mortgages', 'lease', 'residential', 'bathrooms', 'housing', 'home value'],
        1: ['house', 'houses', 'homes', 'for sale', 'neighborhood', 'neighbourhood'],
      },
      fr: {
        3: ['immobilier', 'immobilière', 'appartement*', 'à vendre', 'à louer', 'loyer*', 'agence immobilière', 'locataire*', 'chambres', 'm2'],
        2: ['maison*', 'location*', 'propriétaire*', 'pièces', 'terrain*', 'villa*'],
      },
      de: {
        3: ['immobilie*', 'wohnung*', 'miete', 'mieten', 'makler*', 'eigentumswohnung*', 'grundstück*', 'wohnfläche', 'vermieter*', 'mieter*', 'kaltmiete', 'nebenkosten'],
        2: ['haus', 'häuser', 'zimmer'],
      },
      es: {
        3: ['inmobiliaria*', 'inmueble*', 'piso', 'pisos', 'apartamento*', 'en venta', 'alquiler*', 'alquilar', 'hipoteca*', 'habitaciones', 'dormitorios'],
        2: ['casa*', 'terreno*', 'propiedad*'],
      },
      it: { 3: ['immobiliare', 'immobili', 'appartamento', 'affitto'] },
      pt: { 3: ['imóveis', 'imóvel', 'imobiliária', 'apartamento*', 'aluguel', 'arrendamento'] },
      nl: { 3: ['woning*', 'te koop', 'te huur', 'makelaar*', 'huurwoning*', 'appartement*'], 2: ['huizen'] },
      ja: { 3: ['不動産', '物件', '賃貸', 'マンション', '間取り', '売買', '一戸建て'] },
      zh: { 3: ['房产', '房地产', '楼盘', '租房', '二手房', '房价', '公寓'] },
      ru: { 3: ['недвижимост*', 'квартир*', 'аренд*'] },
    },
    paths: ['real-estate', 'realestate', 'property', 'properties', 'homes', 'rentals', 'rent', 'for-sale', 'apartments', 'listings', 'listing', 'immobilier', 'immobilien', 'inmuebles', 'immobili'],
    hosts: ['realty', 'estate', 'property', 'immo', 'realtor', 'apartment', 'housing', 'zillow.com', 'realtor.com', 'redfin.com', 'trulia.com', 'rightmove.co.uk', 'zoopla.co.uk', 'seloger.com', 'immobilienscout24.de', 'idealista.com', 'immowelt.de', 'suumo.jp'],
    types: ['RealEstateListing', 'RealEstateAgent', 'Residence', 'Apartment', 'House', 'SingleFamilyResidence', 'ApartmentComplex'],
  },
  {
    name: 'jobs-careers',
    label: 'Jobs & Careers',
    description: 'Job offers and job boards, recruiting, careers pages, CVs, salaries and working life.',
    iab: 'IAB4 Careers',
    keywords: {
      en: {
        3: ['job', 'jobs', 'career', 'careers', 'hiring', 'recruiting', 'recruitment', 'recruiter*', 'vacancy', 'vacancies', 'job openings', 'apply now', 'resume', 'cover letter', 'salary', 'salaries', 'employment', 'job description', 'full-time', 'part-time', 'internship*', 'we are hiring', 'job search', 'applicants', 'qualifications', 'responsibilities'],
        2: ['employer*', 'cv', 'remote work', 'position', 'positions', 'interview', 'interviews', 'candidate*', 'workplace', 'hr'],
        1: ['benefits', 'team', 'experience', 'skills', 'work'],
      },
      fr: {
        3: ['emploi*', 'offres d emploi', 'recrutement', 'recrute', 'carrière*', 'candidature*', 'postuler', 'cdi', 'cdd', 'salaire*', 'lettre de motivation', 'embauche'],
        2: ['stage*', 'cv', 'poste'],
      },
      de: {
        3: ['stellenangebot*', 'stellenanzeige*', 'karriere', 'bewerbung*', 'bewerben', 'gehalt', 'lebenslauf', 'arbeitgeber*', 'vollzeit', 'teilzeit', 'praktikum', 'ausbildungsplatz'],
        2: ['jobs', 'job', 'stelle', 'stellen'],
      },
      es: {
        3: ['empleo*', 'ofertas de empleo', 'vacante*', 'candidatura', 'postular*', 'salario*', 'currículum', 'contratación', 'reclutamiento', 'bolsa de trabajo'],
        2: ['trabajo*'],
      },
      it: { 3: ['offerte di lavoro', 'carriera', 'candidatura', 'stipendio'], 2: ['lavoro'] },
      pt: { 3: ['emprego*', 'vagas', 'carreira*', 'currículo', 'salário', 'trabalhe conosco'], 2: ['vaga'] },
      nl: { 3: ['vacature*', 'solliciteren', 'sollicitatie', 'salaris', 'werkgever*'], 2: ['baan', 'banen', 'carrière'] },
      ja: { 3: ['求人', '転職', '採用', '就職', '年収', 'アルバイト', '給与'], 2: ['応募', '募集', '仕事'] },
      zh: { 3: ['招聘', '求职', '职位', '薪资', '简历', '岗位'], 2: ['工作'] },
      ru: { 3: ['ваканси*', 'резюме', 'зарплат*'], 1: ['работ*'] },
    },
    paths: ['jobs', 'job', 'careers', 'career', 'vacancies', 'vacancy', 'hiring', 'recruitment', 'emploi', 'emplois', 'stellenangebote', 'karriere', 'empleo', 'empleos', 'lavoro', 'vacatures'],
    hosts: ['jobs', 'career', 'hiring', 'recruit', 'talent', 'emploi', 'stellen', 'empleo', 'indeed.*', 'glassdoor.*', 'monster.*', 'stepstone.*', 'welcometothejungle.com', 'francetravail.fr', 'infojobs.net', 'ziprecruiter.com', 'xing.com'],
    types: ['JobPosting', 'Occupation', 'EmploymentAgency', 'EmployerAggregateRating'],
  },
  {
    name: 'government-politics',
    label: 'Government & Politics',
    description: 'Governments and public services, politics and elections, laws, courts and public administration.',
    iab: 'IAB11 Law, Government & Politics',
    keywords: {
      en: {
        3: ['government', 'politics', 'political', 'election', 'elections', 'voters', 'voting', 'parliament*', 'congress', 'senate', 'senator*', 'presidential', 'minister', 'ministers', 'ministry', 'legislation', 'democrat*', 'republican*', 'supreme court', 'public services', 'governor', 'mayor', 'constitution*', 'lawmakers', 'legislature'],
        2: ['president', 'law', 'laws', 'policy', 'policies', 'vote', 'votes', 'campaign', 'citizens', 'council', 'federal', 'court', 'legal', 'regulation*', 'bill', 'immigration', 'embassy', 'taxpayer*', 'official website', 'department of', 'permits', 'opposition'],
        1: ['agency', 'public', 'state', 'national', 'official', 'officials'],
      },
      fr: {
        3: ['gouvernement', 'politique*', 'élection*', 'électeur*', 'parlement', 'assemblée nationale', 'sénat', 'sénateur*', 'député*', 'ministre*', 'ministère', 'service public', 'mairie', 'préfecture', 'réforme*'],
        2: ['président', 'loi', 'lois', 'vote', 'démarches', 'administration', 'citoyen*', 'tribunal', 'justice'],
      },
      de: {
        3: ['regierung', 'politik', 'politisch*', 'wahl', 'wahlen', 'bundestag', 'parlament', 'minister*', 'ministerium', 'kanzler*', 'gesetz*', 'partei*', 'abgeordnete*', 'bundesregierung', 'landtag', 'bürgermeister*'],
        2: ['bürger*', 'behörde*', 'verwaltung', 'gericht', 'amt'],
      },
      es: {
        3: ['gobierno', 'política', 'político*', 'elección', 'elecciones', 'votación', 'parlamento', 'congreso', 'senado', 'diputado*', 'ministro*', 'ministerio', 'ayuntamiento'],
        2: ['presidente', 'ley', 'leyes', 'voto*', 'ciudadano*', 'trámite*', 'tribunal*', 'justicia'],
      },
      it: { 3: ['governo', 'politica', 'elezioni', 'parlamento', 'ministro'], 2: ['legge'] },
      pt: { 3: ['governo', 'política', 'eleições', 'eleição', 'parlamento', 'ministro*', 'deputado*'], 2: ['lei', 'presidente'] },
      nl: { 3: ['regering', 'overheid', 'politiek', 'verkiezing*', 'parlement'], 2: ['minister*', 'wet', 'gemeente'] },
      ja: { 3: ['政府', '政治', '選挙', '国会', '首相', '大臣', '議員', '省庁', '自治体', '行政'], 2: ['法律'] },
      zh: { 3: ['政府', '政治', '选举', '议会', '总统', '部长', '政策'], 2: ['法律'] },
      ru: { 3: ['правительств*', 'политик*', 'выборы', 'выборов', 'президент*'], 2: ['закон*'] },
    },
    paths: ['government', 'politics', 'elections', 'election', 'policy', 'legislation', 'ministry', 'politique', 'politik', 'politica', 'gobierno', 'regierung'],
    hosts: ['.gov', '.gouv', '.gob', '.gv', '.govt', '.mil', '.go.jp', '.go.kr', '.gc.ca', '.bund.de', '.admin.ch', 'europa.eu', 'parliament', 'senate', 'congress', 'election', 'politic', 'government', 'ministry', 'whitehouse', 'bundestag', 'un.org', 'politico.*', 'service-public.fr', 'elysee.fr'],
    types: ['GovernmentOrganization', 'GovernmentService', 'GovernmentOffice', 'GovernmentBuilding', 'Legislation', 'LegislativeBuilding', 'PoliticalParty', 'Embassy', 'Courthouse', 'CityHall'],
  },
  {
    name: 'religion',
    label: 'Religion & Spirituality',
    description: 'Religions and faith communities, places of worship, scripture, prayer and spirituality.',
    iab: 'IAB23 Religion & Spirituality',
    keywords: {
      en: {
        3: ['religion', 'religious', 'church', 'churches', 'god', 'jesus', 'christ', 'christian*', 'bible', 'biblical', 'prayer', 'prayers', 'pray', 'worship', 'islam', 'muslim*', 'mosque*', 'quran', 'koran', 'allah', 'jewish', 'judaism', 'synagogue*', 'torah', 'rabbi', 'buddhism', 'buddhist*', 'buddha', 'hindu*', 'catholic*', 'pope', 'vatican', 'priest*', 'pastor*', 'gospel', 'sermon*', 'scripture*', 'parish', 'diocese', 'theology'],
        2: ['faith', 'spiritual*', 'holy', 'saint', 'saints', 'bishop*', 'temple', 'temples', 'ministries'],
        1: ['mass', 'meditation', 'blessing', 'soul'],
      },
      fr: {
        3: ['religion*', 'religieu*', 'église*', 'dieu', 'jésus', 'chrétien*', 'bible', 'prière*', 'islam', 'musulman*', 'mosquée*', 'coran', 'judaïsme', 'synagogue*', 'bouddhisme', 'catholique*', 'pape', 'prêtre*', 'évangile*', 'paroisse*', 'diocèse', 'messe'],
        2: ['foi', 'spirituel*', 'juif', 'juifs', 'juive', 'juives'],
      },
      de: {
        3: ['religion*', 'religiös*', 'kirche*', 'gott', 'jesus', 'christ*', 'bibel', 'gebet*', 'islam', 'muslim*', 'moschee*', 'koran', 'jüdisch*', 'judentum', 'synagoge*', 'buddhismus', 'katholisch*', 'evangelisch*', 'papst', 'pfarrer*', 'gottesdienst*', 'bistum', 'pfarrei'],
        2: ['glaube*'],
      },
      es: {
        3: ['religión', 'religioso*', 'iglesia*', 'dios', 'jesús', 'cristo', 'cristian*', 'biblia', 'oración', 'islam', 'musulmán', 'mezquita*', 'corán', 'judaísmo', 'sinagoga*', 'budismo', 'católic*', 'sacerdote*', 'evangelio*', 'parroquia*', 'misa'],
        2: ['espiritual*', 'judío', 'judíos'],
      },
      it: { 3: ['religione', 'chiesa', 'dio', 'gesù', 'preghiera', 'cattolic*', 'parrocchia', 'vangelo'], 2: ['fede'] },
      pt: { 3: ['religião', 'igreja*', 'deus', 'jesus', 'oração', 'católic*', 'paróquia', 'evangelho'], 2: ['fé'] },
      nl: { 3: ['religie', 'kerk', 'kerken', 'gebed', 'bijbel', 'katholiek*', 'moskee'], 2: ['geloof'] },
      ja: { 3: ['宗教', '神社', '寺院', 'お寺', '仏教', 'キリスト教', '教会', '信仰', '神道'], 2: ['祈り'] },
      zh: { 3: ['宗教', '佛教', '基督教', '教会', '寺庙', '信仰', '祈祷', '伊斯兰教'] },
      ru: { 3: ['религи*', 'церк*', 'православ*'], 2: ['бог', 'храм*'] },
    },
    paths: ['religion', 'church', 'faith', 'bible', 'prayer*', 'sermons', 'ministries', 'worship', 'parish', 'spirituality', 'eglise', 'kirche', 'iglesia'],
    hosts: ['.church', '.va', '.bible', 'church', 'bible', 'faith', 'gospel', 'catholic', 'islam', 'parish', 'diocese', 'eglise', 'kirche', 'iglesia', 'mosque', 'synagog', 'quran', 'biblegateway.com', 'quran.com', 'chabad.org', 'churchofjesuschrist.org', 'jw.org', 'bible.com'],
    types: ['Church', 'PlaceOfWorship', 'Mosque', 'Synagogue', 'BuddhistTemple', 'HinduTemple', 'CatholicChurch'],
  },
  {
    name: 'family-parenting',
    label: 'Family & Parenting',
    description: 'Parenting, pregnancy, babies and children, family life and relationships.',
    iab: 'IAB6 Family & Parenting',
    keywords: {
      en: {
        3: ['parenting', 'toddler*', 'pregnancy', 'pregnant', 'newborn*', 'breastfeeding', 'diaper*', 'nappy', 'nappies', 'childcare', 'daycare', 'motherhood', 'fatherhood', 'maternity', 'paternity'],
        2: ['parent', 'parents', 'baby', 'babies', 'child', 'children', 'kids', 'mom', 'moms', 'mum', 'mums', 'dad', 'dads', 'family', 'families', 'preschool*', 'adoption', 'teenager*', 'infant*', 'bedtime', 'sibling*', 'grandparent*'],
        1: ['mother', 'father', 'birth', 'nursery', 'teens'],
      },
      fr: {
        3: ['parentalité', 'bébé*', 'grossesse', 'enceinte', 'allaitement', 'nourrisson*', 'crèche*', 'maternité'],
        2: ['parents', 'enfant*', 'maman*', 'papa*', 'famille*', 'naissance', 'ados'],
      },
      de: {
        3: ['elternzeit', 'erziehung', 'kleinkind*', 'schwangerschaft', 'schwanger', 'stillen', 'windel*', 'kita'],
        2: ['eltern', 'baby', 'babys', 'kind', 'kinder', 'mama', 'papa', 'familie*', 'geburt', 'kindergarten'],
      },
      es: {
        3: ['crianza', 'bebé*', 'embarazo', 'embarazada', 'lactancia', 'pañal*', 'maternidad'],
        2: ['padres', 'niño*', 'niña*', 'hijos', 'hijo', 'mamá', 'papá', 'familia*'],
      },
      it: { 3: ['gravidanza', 'neonato', 'neonati'], 2: ['genitori', 'bambino', 'bambini', 'mamma', 'famiglia'] },
      pt: { 3: ['bebê*', 'gravidez', 'grávida', 'maternidade'], 2: ['criança*', 'filhos', 'mamãe', 'mãe', 'família*'] },
      nl: { 3: ['opvoeding', 'zwangerschap', 'zwanger'], 2: ['ouders', 'baby', 'kinderen', 'kind', 'gezin*'] },
      ja: { 3: ['育児', '子育て', '赤ちゃん', '妊娠', '出産', '保育園', '幼児'], 2: ['子供', '子ども', 'ママ', '家族'] },
      zh: { 3: ['育儿', '宝宝', '怀孕', '孕妇', '亲子'], 2: ['儿童', '孩子', '妈妈', '家庭'] },
      ru: { 3: ['беременност*', 'ребен*'], 2: ['дети', 'детей', 'родител*', 'семья', 'семьи'] },
    },
    paths: ['parenting', 'family', 'kids', 'baby', 'pregnancy', 'parents', 'children', 'toddler*', 'famille', 'familie', 'familia', 'enfants', 'kinder'],
    hosts: ['parent', 'baby', 'kids', 'family', 'child', 'bebe', 'maman', 'eltern', 'babycenter.com', 'whattoexpect.com', 'parents.com', 'mumsnet.com', 'magicmaman.com', 'parents.fr', 'familie.de'],
    types: ['ChildCare'],
  },
  {
    name: 'home-garden',
    label: 'Home & Garden',
    description: 'Interior design and decoration, furniture, DIY and home improvement, gardening and plants.',
    iab: 'IAB10 Home & Garden',
    keywords: {
      en: {
        3: ['home improvement', 'interior design', 'decor', 'decorating', 'furniture', 'garden', 'gardens', 'gardening', 'diy', 'renovation*', 'remodel*', 'plumbing', 'flooring', 'lawn', 'houseplant*', 'landscaping', 'compost*', 'pruning', 'mulch', 'woodworking', 'handyman', 'homeware'],
        2: ['kitchen', 'kitchens', 'bathroom', 'plants', 'planting', 'seeds', 'flowers', 'sofa', 'sofas', 'couch', 'bedding', 'curtains', 'lighting', 'lamp', 'lamps', 'appliance*', 'cleaning', 'shelves', 'shelving', 'wallpaper', 'patio', 'hvac', 'roofing', 'carpet', 'carpets', 'rug', 'rugs', 'mattress*'],
        1: ['tools', 'storage', 'paint', 'room'],
      },
      fr: {
        3: ['jardin*', 'jardinage', 'bricolage', 'décoration', 'déco', 'meuble*', 'ameublement', 'rénovation*', 'potager', 'canapé*', 'luminaire*', 'salle de bain'],
        2: ['travaux', 'plante*', 'outils', 'maison'],
      },
      de: {
        3: ['garten', 'gärten', 'gartenarbeit', 'heimwerker', 'einrichtung', 'möbel', 'deko', 'dekoration', 'renovierung', 'sanierung', 'badezimmer'],
        2: ['pflanzen', 'wohnen', 'sofa', 'werkzeug*'],
      },
      es: {
        3: ['jardín', 'jardinería', 'bricolaje', 'decoración', 'muebles', 'mueble', 'huerto', 'sofá*'],
        2: ['reforma*', 'plantas', 'hogar', 'herramientas'],
      },
      it: { 3: ['giardino', 'giardinaggio', 'arredamento', 'mobili', 'fai da te', 'ristrutturazione'], 2: ['piante'] },
      pt: { 3: ['jardim', 'jardinagem', 'decoração', 'móveis'], 2: ['reforma*', 'plantas'] },
      nl: { 3: ['tuin', 'tuinen', 'tuinieren', 'klussen', 'interieur', 'meubel*', 'verbouwing'], 2: ['planten', 'wonen'] },
      ja: { 3: ['インテリア', '家具', 'ガーデニング', '園芸', 'リフォーム', '収納', '住まい', '雑貨'] },
      zh: { 3: ['家居', '装修', '家具', '园艺', '花园', '收纳'], 2: ['装饰'] },
      ru: { 3: ['мебел*', 'ремонт*', 'интерьер*', 'огород*'], 2: ['сад'] },
    },
    paths: ['garden', 'gardening', 'diy', 'decor', 'furniture', 'home-improvement', 'interior*', 'jardin', 'garten', 'bricolage', 'deco', 'muebles', 'moebel'],
    hosts: ['garden', 'decor', 'furniture', 'interior', 'jardin', 'garten', 'ikea.com', 'homedepot.com', 'lowes.com', 'houzz.*', 'wayfair.*', 'bhg.com', 'leroymerlin.*', 'obi.de', 'gardenersworld.com', 'rhs.org.uk', 'apartmenttherapy.com'],
    types: ['HomeAndConstructionBusiness', 'HomeGoodsStore', 'FurnitureStore', 'GardenStore', 'HardwareStore', 'Plumber', 'Electrician', 'HousePainter', 'RoofingContractor', 'GeneralContractor', 'Locksmith', 'HVACBusiness'],
  },
  {
    name: 'adult',
    label: 'Adult',
    description: 'Sexually explicit or adults-only content (flagged so that callers can filter it).',
    iab: 'IAB25-3 Pornography (Non-Standard Content)',
    keywords: {
      en: {
        3: ['porn*', 'xxx', 'nsfw', 'erotic*', 'hentai', 'camgirl*', 'fetish*', 'adult content', 'adults only', 'explicit content', 'onlyfans', 'nude', 'nudes'],
        2: ['sex', 'naked', 'escort', 'escorts', 'strip club'],
        1: ['sexy', 'adult', 'adults'],
      },
      fr: { 3: ['porno*', 'érotique*', 'contenu pour adultes', 'réservé aux adultes'], 2: ['sexe'] },
      de: { 3: ['porno*', 'erotik*'], 2: ['nackt'] },
      es: { 3: ['porno*', 'erótic*', 'contenido para adultos'], 2: ['sexo', 'desnud*'] },
      it: { 3: ['porno*'], 2: ['sesso'] },
      pt: { 3: ['pornô', 'porno*'], 2: ['sexo'] },
      nl: { 3: ['porno*', 'erotiek'], 2: ['naakt', 'seks'] },
      ja: { 3: ['アダルト', 'エロ', '成人向け'] },
      zh: { 3: ['色情', '情色', '黄片'], 2: ['成人'] },
      ru: { 3: ['порно*', 'эротик*'], 2: ['секс*'] },
    },
    paths: ['porn', 'xxx', 'adult', 'nsfw', 'sex', 'erotic*', 'nude*', 'escort*'],
    hosts: ['.xxx', '.adult', '.porn', '.sex', 'porn', 'xxx', 'sex', 'nude', 'erotic', 'escort', 'nsfw', 'hentai'],
    types: ['rating:adult'],
  },
  {
    name: 'social-media',
    label: 'Social Media & Communities',
    description: 'Social networks, profiles and posts, forums and online communities.',
    iab: '— (a kind of site rather than a topic; IAB 1.0 has no tier-1 for it)',
    keywords: {
      en: {
        3: ['followers', 'retweet*', 'repost*', 'subreddit*', 'upvote*', 'downvote*', 'social network', 'social networks', 'friend request', 'friend requests', 'direct message', 'direct messages'],
        2: ['following', 'likes', 'hashtag*', 'timeline', 'news feed', 'replies', 'forum', 'forums', 'tweets', 'reels', 'join the conversation', 'log in to see', 'sign up to see'],
        1: ['comments', 'profile', 'social media', 'threads', 'members', 'posts', 'joined', 'community', 'share'],
      },
      fr: { 3: ['abonnés'], 2: ['réseau social', 'forum', 'publications', 'j aime'], 1: ['commentaires', 'partager'] },
      de: { 3: ['follower'], 2: ['abonnenten', 'gefällt mir', 'soziales netzwerk', 'forum'], 1: ['beiträge', 'kommentare'] },
      es: { 3: ['seguidores'], 2: ['siguiendo', 'me gusta', 'red social', 'foro'], 1: ['publicaciones', 'comentarios'] },
      it: { 3: ['follower'], 2: ['mi piace', 'social network'] },
      pt: { 3: ['seguidores'], 2: ['curtidas', 'rede social'] },
      nl: { 3: ['volgers'], 2: ['volgend'] },
      ja: { 3: ['フォロワー', 'いいね', 'リツイート', 'タイムライン', 'フォロー中'], 1: ['投稿'] },
      zh: { 3: ['粉丝', '转发', '点赞', '微博'], 2: ['关注'], 1: ['评论'] },
      ru: { 3: ['подписчик*'], 2: ['лайк*'] },
    },
    paths: ['status', 'profile', 'hashtag', 'followers', 'following', 'feed', 'thread*', 'forum*', 'community', 'members'],
    pathPatterns: [/^\/r\/[^/]+\/comments\//, /^\/[^/]+\/status\/\d+/],
    hosts: ['social', 'forum', 'community', 'facebook.com', 'instagram.com', 'twitter.com', 'x.com', 'tiktok.com', 'reddit.com', 'linkedin.com', 'pinterest.*', 'snapchat.com', 'youtube.com', 'tumblr.com', 'threads.net', 'mastodon.social', 'bsky.app', 'vk.com', 'weibo.com', 'discord.com', 'quora.com'],
    types: ['SocialMediaPosting', 'DiscussionForumPosting', 'ProfilePage', 'og:profile'],
  },
  {
    name: 'reference',
    label: 'Reference',
    description: 'Encyclopedias, dictionaries, glossaries, translations, FAQs and how-to references.',
    iab: '— (IAB 1.0 has no tier-1 for reference works)',
    keywords: {
      en: {
        3: ['encyclopedia', 'encyclopaedia', 'free encyclopedia', 'dictionary', 'dictionaries', 'definition', 'definitions', 'glossary', 'thesaurus', 'synonym*', 'antonym*', 'pronunciation', 'etymology', 'wikipedia', 'frequently asked questions', 'almanac'],
        2: ['wiki', 'meaning', 'faq', 'faqs', 'reference', 'translation', 'translate', 'see also', 'external links', 'noun', 'verb', 'adjective', 'how to', 'handbook', 'manual', 'citation*'],
        1: ['references', 'retrieved', 'overview', 'explained', 'guide'],
      },
      fr: {
        3: ['encyclopédie', 'dictionnaire', 'définition*', 'glossaire', 'synonyme*', 'wikipédia', 'voir aussi', 'liens externes', 'notes et références', 'étymologie', 'prononciation', 'questions fréquentes', 'nom masculin', 'nom féminin'],
        2: ['wiki', 'traduction*', 'signification', 'faq'],
      },
      de: {
        3: ['enzyklopädie', 'wörterbuch', 'glossar', 'lexikon', 'siehe auch', 'weblinks', 'einzelnachweise', 'aussprache', 'substantiv'],
        2: ['definition', 'bedeutung', 'synonym*', 'wiki', 'wikipedia', 'übersetzung*'],
      },
      es: {
        3: ['enciclopedia', 'diccionario', 'definición', 'sinónimo*', 'glosario', 'véase también', 'enlaces externos', 'pronunciación', 'etimología', 'preguntas frecuentes'],
        2: ['significado', 'wiki', 'wikipedia', 'traducción*'],
      },
      it: { 3: ['enciclopedia', 'dizionario', 'definizione', 'sinonimi', 'voci correlate', 'collegamenti esterni'], 2: ['significato'] },
      pt: { 3: ['enciclopédia', 'dicionário', 'definição', 'sinônimo*', 'ver também', 'ligações externas'], 2: ['significado'] },
      nl: { 3: ['encyclopedie', 'woordenboek', 'definitie', 'synoniem*', 'zie ook', 'externe links'], 2: ['betekenis'] },
      ja: { 3: ['辞書', '百科事典', '用語集', '辞典', '関連項目', '脚注', '読み方'], 2: ['意味', '出典'] },
      zh: { 3: ['百科', '词典', '辞典', '释义', '参考文献', '词条'], 2: ['定义', '参见'] },
      ru: { 3: ['энциклопеди*', 'словар*', 'википеди*'], 2: ['значени*', 'определени*'] },
    },
    paths: ['wiki', 'dictionary', 'definition', 'define', 'encyclopedia', 'glossary', 'faq', 'reference', 'thesaurus', 'translate', 'dictionnaire', 'woerterbuch', 'diccionario'],
    hosts: ['wiki', 'dictionary', 'encyclop', 'thesaurus', 'glossary', 'translate', 'lexic', 'wikipedia.org', 'wiktionary.org', 'britannica.com', 'merriam-webster.com', 'dictionary.com', 'larousse.fr', 'duden.de', 'rae.es', 'wordreference.com', 'wikihow.com', 'linguee.*', 'collinsdictionary.com', 'thefreedictionary.com', 'kotobank.jp', 'weblio.jp'],
    types: ['DefinedTerm', 'DefinedTermSet', 'FAQPage', 'QAPage', 'HowTo'],
  },
  {
    name: 'style-fashion',
    label: 'Style & Fashion',
    description: 'Clothing, shoes and accessories, fashion trends and designers, beauty and cosmetics.',
    iab: 'IAB18 Style & Fashion',
    keywords: {
      en: {
        3: ['fashion', 'outfit', 'outfits', 'menswear', 'womenswear', 'runway', 'catwalk', 'couture', 'makeup', 'make-up', 'cosmetics', 'skincare', 'hairstyle*', 'lookbook', 'lipstick', 'apparel'],
        2: ['clothing', 'dress', 'dresses', 'shoes', 'sneakers', 'handbag*', 'jewelry', 'jewellery', 'accessories', 'designer', 'designers', 'beauty', 'wardrobe', 'perfume*', 'fragrance*', 'style', 'trends', 'boots', 'jackets', 'jeans'],
        1: ['wear', 'look', 'looks', 'collection', 'trend', 'size'],
      },
      fr: {
        3: ['vêtement*', 'défilé*', 'haute couture', 'maquillage', 'cosmétique*', 'coiffure*', 'prêt-à-porter'],
        2: ['mode', 'tenue*', 'robe*', 'chaussure*', 'sac à main', 'bijou*', 'accessoire*', 'beauté', 'tendance*', 'parfum*'],
      },
      de: {
        3: ['kleidung', 'bekleidung', 'laufsteg', 'kosmetik', 'hautpflege', 'frisur*', 'damenmode', 'herrenmode'],
        2: ['mode', 'outfit', 'outfits', 'kleid', 'kleider', 'schuhe', 'handtasche*', 'schmuck', 'accessoires', 'schönheit', 'parfüm'],
      },
      es: {
        3: ['ropa', 'pasarela', 'maquillaje', 'cosmética', 'peinado*'],
        2: ['moda', 'vestido*', 'zapato*', 'zapatillas', 'bolso*', 'joyería', 'joyas', 'accesorios', 'belleza', 'tendencia*'],
      },
      it: { 3: ['abbigliamento', 'sfilata', 'trucco'], 2: ['moda', 'vestito', 'vestiti', 'scarpe', 'borse', 'gioielli', 'bellezza'] },
      pt: { 3: ['maquiagem', 'roupas'], 2: ['moda', 'vestido*', 'sapato*', 'bolsas', 'joias', 'beleza'] },
      nl: { 3: ['kleding'], 2: ['mode', 'jurk*', 'schoenen', 'tassen', 'sieraden', 'schoonheid'] },
      ja: { 3: ['ファッション', 'コーデ', 'コーディネート', 'メイク', 'コスメ', 'ヘアスタイル', '洋服', 'スキンケア'], 1: ['ブランド'] },
      zh: { 3: ['时尚', '时装', '穿搭', '服装', '美妆', '化妆品', '护肤'] },
      ru: { 3: ['одежд*', 'косметик*'], 2: ['мода', 'моды', 'обув*', 'красот*'] },
    },
    paths: ['fashion', 'style', 'clothing', 'beauty', 'women', 'men', 'womens', 'mens', 'dresses', 'shoes', 'jewelry', 'accessories', 'makeup', 'skincare', 'mode', 'moda'],
    hosts: ['fashion', 'style', 'vogue', 'beauty', 'cosmetic', 'moda', 'apparel', 'jewel', 'vogue.*', 'elle.*', 'gq.com', 'harpersbazaar.com', 'asos.com', 'zara.com', 'hm.com', 'uniqlo.com', 'sephora.*', 'net-a-porter.com', 'farfetch.com', 'shein.com', 'vinted.*', 'zalando.*'],
    types: ['ClothingStore', 'ShoeStore', 'JewelryStore', 'BeautySalon', 'HairSalon', 'NailSalon', 'DaySpa', 'HealthAndBeautyBusiness'],
  },
  {
    name: 'pets',
    label: 'Pets',
    description: 'Pets and pet care: dogs, cats and other animals kept at home, breeds, vets and pet supplies.',
    iab: 'IAB16 Pets',
    keywords: {
      en: {
        3: ['pet', 'pets', 'dog', 'dogs', 'puppy', 'puppies', 'cat', 'cats', 'kitten*', 'veterinary', 'veterinarian*', 'pet food', 'dog food', 'cat food', 'leash', 'aquarium*', 'hamster*', 'canine', 'feline', 'kennel*', 'spay*', 'neuter*', 'adopt a pet'],
        2: ['vet', 'vets', 'breed', 'breeds', 'litter', 'grooming', 'rabbit*', 'parrot*', 'reptile*', 'animal', 'animals', 'flea', 'fleas', 'paws'],
        1: ['shelter', 'rescue', 'tick', 'ticks', 'treats'],
      },
      fr: {
        3: ['animaux de compagnie', 'animal de compagnie', 'chien', 'chiens', 'chiot*', 'chaton*', 'vétérinaire*', 'croquette*', 'litière', 'toilettage'],
        2: ['chat', 'chats', 'animaux'],
        1: ['race', 'races', 'refuge*'],
      },
      de: { 3: ['haustier*', 'hund', 'hunde', 'welpe*', 'katze*', 'kätzchen', 'tierarzt', 'tierärztin', 'hundefutter', 'katzenfutter', 'tierheim'], 1: ['rasse*', 'tiere'] },
      es: { 3: ['mascota*', 'perro*', 'cachorro*', 'gatito*', 'veterinario*', 'pienso'], 2: ['gato', 'gatos'], 1: ['raza*'] },
      it: { 3: ['animali domestici', 'cane', 'cani', 'cucciolo', 'cuccioli', 'gatto', 'gatti', 'veterinario'] },
      pt: { 3: ['animais de estimação', 'cachorro*', 'cão', 'cães', 'filhote*', 'veterinário*'], 2: ['gato', 'gatos'] },
      nl: { 3: ['huisdier*', 'hond', 'honden', 'katten', 'dierenarts'], 2: ['kat', 'puppy', 'kitten'] },
      ja: { 3: ['ペット', '子犬', '子猫', '動物病院', '獣医', 'ドッグフード', 'キャットフード'], 2: ['犬', '猫'] },
      zh: { 3: ['宠物', '小狗', '小猫', '兽医', '狗粮', '猫粮'], 2: ['狗', '猫'] },
      ru: { 3: ['собак*', 'кошк*', 'кошек', 'питомц*', 'ветеринар*'] },
    },
    paths: ['pets', 'pet', 'dogs', 'dog', 'cats', 'cat', 'puppies', 'kittens', 'veterinary', 'chiens', 'chats', 'hunde', 'katzen', 'perros', 'gatos'],
    hosts: ['pet', 'dog', 'puppy', 'kitten', 'vet', 'animal', 'paw', 'chien', 'hund', 'perro', 'petco.com', 'petsmart.com', 'chewy.com', 'akc.org', 'rspca.org.uk', 'aspca.org', 'zooplus.*', 'wamiz.com', 'rover.com'],
    types: ['PetStore', 'VeterinaryCare', 'AnimalShelter'],
  },
];

/**
 * English keywords that are ordinary words of another language, with another meaning: on a page in that
 * language they are not matched as English (French `pain` is bread, German `Art` is a kind, Italian and
 * Portuguese `data` is a date). The page language's stopwords (language.ts) are skipped the same way
 * (French `ai`, `car`).
 */
export const ENGLISH_FALSE_FRIENDS: Partial<Record<KeywordLanguage, readonly string[]>> = {
  fr: ['pain', 'sale', 'tour', 'course', 'lecture', 'reporter'],
  de: ['art', 'chef', 'brand', 'pension', 'dose'],
  es: ['sale', 'mayor'],
  it: ['data', 'sale'],
  pt: ['data', 'pasta'],
  nl: ['brand', 'room', 'rent', 'vet'],
};

/** The category names, in taxonomy order. */
export const CATEGORY_NAMES: readonly string[] = TAXONOMY.map((c) => c.name);
