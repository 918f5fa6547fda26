export * from './pages.controller';
export * from './pages.service';
export * from './web.module';
