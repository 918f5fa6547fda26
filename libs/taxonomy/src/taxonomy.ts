export type Taxonomy = 'category' | 'tag';

export interface TaxonomyInfo {
  taxonomy: Taxonomy;
  /** The `taxonomy` key of the term object, as TEC names it. */
  wpName: string;
  /** Collection path below the namespace. */
  path: string;
  /** Prefix of archive-page error codes: `category-archive-page-not-found`. */
  kind: string;
  /** Public archive page, below SITE_URL. */
  sitePath: string;
  notFoundCode: string;
}

export const TAXONOMIES: Record<Taxonomy, TaxonomyInfo> = {
  category: {
    taxonomy: 'category',
    wpName: 'tribe_events_cat',
    path: 'categories',
    kind: 'category',
    sitePath: 'events/category',
    notFoundCode: 'rest-category-not-found',
  },
  tag: { taxonomy: 'tag', wpName: 'post_tag', path: 'tags', kind: 'tag', sitePath: 'events/tag', notFoundCode: 'rest-tag-not-found' },
};
