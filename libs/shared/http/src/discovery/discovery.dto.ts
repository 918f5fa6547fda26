import { EnumParam, StringParam } from '../validation';
import { LocalizedDto } from '../localized.dto';
import { NAMESPACE } from '../constants';

export class NamespaceIndexDto extends LocalizedDto {
  @StringParam({ default: NAMESPACE, description: 'The namespace to describe' })
  namespace: string = NAMESPACE;

  @EnumParam(['view', 'embed', 'edit'], { default: 'view', description: 'Scope of the description' })
  context = 'view';
}

export class DocDto extends LocalizedDto {}
