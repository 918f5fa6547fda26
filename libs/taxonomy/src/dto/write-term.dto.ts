import { HtmlParam, IntegerParam, LocalizedDto, StringParam } from '@calendar/shared/http';

export class CreateTagDto extends LocalizedDto {
  @StringParam({ required: true, maxLength: 200, description: 'The term name' })
  name: string;

  @HtmlParam({ empty: 'empty-string', description: 'The term description (HTML)' })
  description?: string;

  @StringParam({ maxLength: 200, empty: 'empty-string', description: 'The term slug; made from the name when absent' })
  slug?: string;
}

export class CreateCategoryDto extends CreateTagDto {
  @IntegerParam({ empty: 'null', description: 'Id of the parent category; 0 for the top level' })
  parent?: number | null;
}

export class UpdateTagDto extends LocalizedDto {
  @StringParam({ maxLength: 200, description: 'The term name' })
  name?: string;

  @HtmlParam({ empty: 'empty-string', description: 'The term description (HTML)' })
  description?: string;

  @StringParam({ maxLength: 200, empty: 'empty-string', description: 'The term slug; empty to make it again from the name' })
  slug?: string;
}

export class UpdateCategoryDto extends UpdateTagDto {
  @IntegerParam({ empty: 'null', description: 'Id of the parent category; 0 for the top level' })
  parent?: number | null;
}

/** The fields a term write can carry, whichever taxonomy. */
export type TermWrite = Partial<CreateTagDto> & { parent?: number | null };

/** Read and delete take no parameters but the language. */
export class TermItemDto extends LocalizedDto {}
