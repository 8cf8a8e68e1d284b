// The closed lists the platform's definition gives for media fields: its IAB categories and the source MIME types it
// names. A value outside them is answered as null (answers.ts), never as the platform would not.

export const IAB_CATEGORIES = [
  'Automotive', 'Books and Literature', 'Business and Finance', 'Careers', 'Education', 'Events and Attractions',
  'Family and Relationships', 'Fine Art', 'Food & Drink', 'Healthy Living', 'Hobbies & Interests', 'Home & Garden',
  'Medical Health', 'Movies', 'Music and Audio', 'News and Politics', 'Personal Finance', 'Pets', 'Pop Culture',
  'Real Estate', 'Religion & Spirituality', 'Science', 'Shopping', 'Sports', 'Style & Fashion',
  'Technology & Computing', 'Television', 'Travel', 'Video Gaming',
] as const;

export const SOURCE_MIME_TYPES = [
  'video/mp4', 'video/webm', 'video/flv', 'audio/aac', 'audio/mpeg', 'audio/ogg', 'application/vnd.apple.mpegurl',
  'application/smil+xml', 'application/dash+xml', 'video/flash',
] as const;
