import { BooleanParam, EnumParam, IntegerListParam, IntegerParam, LocalizedDto, SearchParam, StringParam } from '@calendar/shared/http';

export const TAG_ORDERBY = ['name', 'id', 'slug', 'count', 'description', 'include'] as const;
export const CATEGORY_ORDERBY = [...TAG_ORDERBY, 'parent'] as const;
export type TermOrderBy = (typeof CATEGORY_ORDERBY)[number];

class ListTermsQueryDto extends LocalizedDto {
  @IntegerParam({ min: 1, default: 1, description: 'The page of the collection to return' })
  page = 1;

  @IntegerParam({ min: 1, max: 100, default: 10, description: 'Terms per page' })
  per_page = 10;

  @SearchParam({ description: 'Terms whose name or slug contains this text (case-insensitive)' })
  search?: string;

  @IntegerListParam({ description: 'Leave out these term ids' })
  exclude?: number[];

  @IntegerListParam({ description: 'Only these term ids' })
  include?: number[];

  @EnumParam(['asc', 'desc'], { default: 'asc', description: 'Sort direction' })
  order: 'asc' | 'desc' = 'asc';

  @BooleanParam({ default: true, description: 'Hide terms no published event carries' })
  hide_empty = true;

  @IntegerParam({ description: 'Terms attached to this event id' })
  post?: number;

  @IntegerParam({ description: 'Terms attached to this event id (alias of post; wins when both are sent)' })
  event?: number;

  @StringParam({ description: 'Terms with exactly this slug, in any language' })
  slug?: string;
}

export class ListTagsQueryDto extends ListTermsQueryDto {
  @EnumParam(TAG_ORDERBY, { default: 'name', description: 'Sort by this attribute' })
  orderby: TermOrderBy = 'name';
}

export class ListCategoriesQueryDto extends ListTermsQueryDto {
  @EnumParam(CATEGORY_ORDERBY, { default: 'name', description: 'Sort by this attribute' })
  orderby: TermOrderBy = 'name';

  @IntegerParam({ description: 'Direct children of this category id; 0 for the top level' })
  parent?: number;
}

export type ListTermsQuery = ListTagsQueryDto & { parent?: number };
