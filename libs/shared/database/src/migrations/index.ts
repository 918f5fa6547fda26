import { Foundation1767225600000 } from './1767225600000-foundation';
import { VenuesOrganizers1767312000000 } from './1767312000000-venues-organizers';

/** The schema history, oldest first. Every schema change is a new file added here. */
export const MIGRATIONS = [Foundation1767225600000, VenuesOrganizers1767312000000];
