/** The words of the pages, per language; a language without its own words uses English (SPEC §7's fallback). */
export interface PageText {
  skip: string;
  navigation: string;
  language: string;
  upcoming: string;
  month: string;
  months: string;
  search: string;
  category: string;
  tag: string;
  all: string;
  filter: string;
  noEvents: string;
  pages: string;
  previous: string;
  next: string;
  page: string;
  venue: string;
  organizers: string;
  cost: string;
  categories: string;
  tags: string;
  website: string;
  map: string;
  address: string;
  phone: string;
  email: string;
  addToCalendar: string;
  google: string;
  download: string;
  subscribe: string;
  protected: string;
  upcomingHere: string;
  moreEvents: string;
  allDay: string;
  notFound: string;
  notFoundText: string;
  badRequest: string;
  backToEvents: string;
  searchResults: string;
}

const ENGLISH: PageText = {
  skip: 'Skip to the content',
  navigation: 'Main',
  language: 'Language',
  upcoming: 'Upcoming events',
  month: 'Month',
  months: 'Months',
  search: 'Search',
  category: 'Category',
  tag: 'Tag',
  all: 'All',
  filter: 'Show events',
  noEvents: 'No events.',
  pages: 'Pages',
  previous: 'Previous',
  next: 'Next',
  page: 'Page',
  venue: 'Venue',
  organizers: 'Organizers',
  cost: 'Cost',
  categories: 'Categories',
  tags: 'Tags',
  website: 'Website',
  map: 'Map (OpenStreetMap)',
  address: 'Address',
  phone: 'Phone',
  email: 'E-mail',
  addToCalendar: 'Add to calendar (.ics)',
  google: 'Add to Google Calendar',
  download: 'Download these events (.ics)',
  subscribe: 'Subscribe in a calendar program',
  protected: 'This event is protected by a password.',
  upcomingHere: 'Upcoming events',
  moreEvents: '%d more',
  allDay: 'all day',
  notFound: 'Page not found',
  notFoundText: 'There is no page at this address.',
  badRequest: 'This page cannot be shown',
  backToEvents: 'See the upcoming events',
  searchResults: 'Results for',
};

const TEXTS: Record<string, Partial<PageText>> = {
  en: ENGLISH,
  fr: {
    skip: 'Aller au contenu',
    navigation: 'Principal',
    language: 'Langue',
    upcoming: 'Événements à venir',
    month: 'Mois',
    months: 'Mois',
    search: 'Rechercher',
    category: 'Catégorie',
    tag: 'Étiquette',
    all: 'Toutes',
    filter: 'Afficher',
    noEvents: 'Aucun événement.',
    pages: 'Pages',
    previous: 'Précédent',
    next: 'Suivant',
    page: 'Page',
    venue: 'Lieu',
    organizers: 'Organisateurs',
    cost: 'Prix',
    categories: 'Catégories',
    tags: 'Étiquettes',
    website: 'Site web',
    map: 'Carte (OpenStreetMap)',
    address: 'Adresse',
    phone: 'Téléphone',
    email: 'Courriel',
    addToCalendar: 'Ajouter à mon agenda (.ics)',
    google: 'Ajouter à Google Agenda',
    download: 'Télécharger ces événements (.ics)',
    subscribe: "S'abonner dans un agenda",
    protected: 'Cet événement est protégé par un mot de passe.',
    upcomingHere: 'Événements à venir',
    moreEvents: '%d de plus',
    allDay: 'toute la journée',
    notFound: 'Page introuvable',
    notFoundText: "Il n'y a pas de page à cette adresse.",
    badRequest: 'Cette page ne peut pas être affichée',
    backToEvents: 'Voir les événements à venir',
    searchResults: 'Résultats pour',
  },
  'zh-hans': {
    skip: '跳到内容',
    navigation: '主导航',
    language: '语言',
    upcoming: '近期活动',
    month: '月历',
    months: '月份',
    search: '搜索',
    category: '分类',
    tag: '标签',
    all: '全部',
    filter: '显示活动',
    noEvents: '没有活动。',
    pages: '分页',
    previous: '上一页',
    next: '下一页',
    page: '第',
    venue: '地点',
    organizers: '主办方',
    cost: '费用',
    categories: '分类',
    tags: '标签',
    website: '网站',
    map: '地图（OpenStreetMap）',
    address: '地址',
    phone: '电话',
    email: '电子邮件',
    addToCalendar: '添加到日历（.ics）',
    google: '添加到 Google 日历',
    download: '下载这些活动（.ics）',
    subscribe: '在日历程序中订阅',
    protected: '此活动受密码保护。',
    upcomingHere: '近期活动',
    moreEvents: '另有 %d 个',
    allDay: '全天',
    notFound: '找不到页面',
    notFoundText: '此地址没有页面。',
    badRequest: '无法显示此页面',
    backToEvents: '查看近期活动',
    searchResults: '搜索结果：',
  },
};

export function pageText(language: string): PageText {
  return { ...ENGLISH, ...(TEXTS[language] ?? {}) };
}

const languageNames = new Map<string, string>();

/** The name of each language in that language, for the language switcher. */
export function languageName(language: string): string {
  let name = languageNames.get(language);
  if (name === undefined) {
    name = nameOf(language);
    if (languageNames.size < 100) languageNames.set(language, name);
  }
  return name;
}

function nameOf(language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: 'language' }).of(language);
    return name ? name.charAt(0).toLocaleUpperCase(language) + name.slice(1) : language;
  } catch {
    return language;
  }
}

/** A language code as HTML and hreflang write it (BCP 47 case: `zh-Hans`, `pt-BR`). */
export function bcp47(language: string): string {
  return language
    .split('-')
    .map((part, index) => (index === 0 ? part.toLowerCase() : part.length === 4 ? part.charAt(0).toUpperCase() + part.slice(1).toLowerCase() : part.length === 2 ? part.toUpperCase() : part))
    .join('-');
}
