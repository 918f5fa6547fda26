/** Every route the server registered, so that a path served under other methods answers 405, not 404. */
export class RouteRegistry {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(method: string | string[], url: string): void {
    // Catch-all routes (the CORS preflight) serve every path; they say nothing about which paths exist.
    if (url.includes('*')) return;
    const pattern = toPattern(url);
    const existing = this.routes.find((route) => route.pattern.source === pattern.source);
    const methods = Array.isArray(method) ? method : [method];
    if (existing) methods.forEach((m) => existing.methods.add(m.toUpperCase()));
    else this.routes.push({ pattern, methods: new Set(methods.map((m) => m.toUpperCase())) });
  }

  /** The methods served at a concrete path, or an empty list when the path is unknown. */
  methodsFor(path: string): string[] {
    const clean = path.split('?')[0].replace(/\/+$/, '') || '/';
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(clean)) route.methods.forEach((m) => methods.add(m));
    return [...methods].filter((m) => m !== 'HEAD');
  }
}

/** Turns a find-my-way path (`/a/:id(^\\d+$)/b`) into an anchored regular expression. */
function toPattern(url: string): RegExp {
  const path = url.replace(/\/+$/, '') || '/';
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^:[A-Za-z0-9_]+(?:\((.*)\))?$/.exec(segment);
      if (!param) return segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const constraint = param[1]?.replace(/^\^/, '').replace(/\$$/, '');
      return constraint ? `(?:${constraint})` : '[^/]+';
    })
    .join('/');
  return new RegExp(`^${source}$`);
}
