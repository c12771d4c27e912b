/** Persisted values (projects.tracking): renaming them strands data. */
export const TRACKING_MODES = ['ENABLED', 'DISABLED', 'MARKETING_ONLY'] as const;

/** Languages of hosted pages and footers. */
export const PROJECT_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'pt', 'it'] as const;
