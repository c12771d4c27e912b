import { slugOf } from '../../platform/slug';

/** A segment's slug: the platform's slug rule (`slugOf`). */
export const segmentSlug = slugOf;

/** The emitted event names of a segment (`segment.<slug>.entry` / `.exit`); a name with no slug characters uses the id. */
export const segmentEventNames = (name: string, id: string) => {
  const slug = segmentSlug(name) || id;
  return { entry: `segment.${slug}.entry`, exit: `segment.${slug}.exit` };
};
