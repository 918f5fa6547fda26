import { Foundation1767225600000 } from './1767225600000-foundation';

/** The schema history, oldest first. Every schema change is a new file added here. */
export const MIGRATIONS = [Foundation1767225600000];
