import { Eta } from 'eta';
import error from './views/error.eta';
import eventItems from './views/event-items.eta';
import event from './views/event.eta';
import layout from './views/layout.eta';
import list from './views/list.eta';
import month from './views/month.eta';
import record from './views/record.eta';

/** The templates of the pages, by name (bundled as text: nothing is read from disk while serving). */
const TEMPLATES: Record<string, string> = { layout, 'event-items': eventItems, event, list, month, record, error };

export type TemplateName = 'event' | 'list' | 'month' | 'record' | 'error';

/**
 * Eta, escaping every `<%= %>` (text and attribute values alike); only `<%~ %>` prints as it is, and the pages
 * use it for the sanitised HTML the API stores (descriptions, excerpts), the JSON-LD made safe for its block,
 * and the templates' own output.
 */
export class PageView {
  private readonly eta = new Eta({ autoEscape: true, autoTrim: [false, 'nl'], cache: true, useWith: false });

  constructor() {
    for (const [name, text] of Object.entries(TEMPLATES)) this.eta.loadTemplate(`@${name}`, text);
  }

  render(name: TemplateName, model: object): string {
    return this.eta.render(`@${name}`, model);
  }
}
