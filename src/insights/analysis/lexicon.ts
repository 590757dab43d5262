// The home-services lexicon (versioned data, no logic): aspect terms, domain opinion words, negators and modifiers.
import type { AspectId } from '../../reviews/schemas.js';
import { CONCESSIVE, CONTRAST, STRONG_NEGATORS, WEAK_NEGATORS } from './polarity/lexicon.js';

/** Bumped whenever an entry changes, so stored or cached analyses of an older lexicon are recomputed. */
export const LEXICON_VERSION = '2026.11.1';

/**
 * An entry is a word or phrase (lowercase, accents folded, hyphens as spaces) with what it means on its own:
 * - `aspect` alone: a target that names an aspect ("price", "showed up") and needs an opinion nearby;
 * - `aspect` and `valence`: a judgement of that aspect by itself ("overpriced", "punctual", "no show");
 * - `valence` alone: a general opinion that judges the nearest target ("great", "terrible").
 * `by` gives a different valence when the word judges a particular aspect ("fair price" +, "high price" −,
 * "fast" + for responsiveness). Valences run from −1 to 1.
 */
export interface Entry {
  aspect?: AspectId;
  valence?: number;
  by?: Partial<Record<AspectId, number>>;
  /** The valence holds only when no opinion judges the word: "called back" is good, "slow to call back" is not. */
  weak?: boolean;
  /** A fault: it judges quality only when the clause places it after the job. */
  malfunction?: boolean;
}

type Table = Record<string, Entry>;

const targets = (aspect: AspectId, words: string[]): Table => Object.fromEntries(words.map((w) => [w, { aspect }]));
const judged = (aspect: AspectId, valence: number, words: string[]): Table =>
  Object.fromEntries(words.map((w) => [w, { aspect, valence }]));
const opinions = (valence: number, words: string[]): Table => Object.fromEntries(words.map((w) => [w, { valence }]));
/** Acts that are good (or bad) by default, yet take an opinion when one is given. */
const acts = (aspect: AspectId, valence: number, words: string[]): Table => Object.fromEntries(words.map((w) => [w, { aspect, valence, weak: true }]));

const punctuality: Table = {
  ...targets('punctuality', [
    'arrival', 'arrive', 'arrived', 'arriving', 'arrives', 'showed up', 'show up', 'shows up', 'showing up',
    'appointment window', 'arrival window', 'time window', 'window', 'timing', 'timely', 'schedule', 'scheduled time',
    'got here', 'got there', 'eta',
  ]),
  ...acts('punctuality', -0.4, ['wait', 'waited', 'waiting', 'hour wait', '# hour wait', '# hours wait']),
  ...judged('punctuality', 0.7, ['no waiting', 'no wait', 'without waiting']),
  ...judged('punctuality', 0.8, [
    'on time', 'when they said', 'when he said', 'when she said', 'when promised', 'as promised', 'came out on time',
    '# sharp', 'on the dot', 'right at #', 'before #',
    'within the window', 'in the window', 'start of the window', 'beginning of the window', 'at the scheduled time',
    'like he said', 'like they said', 'as scheduled', 'when scheduled', 'turned up on time', 'showed up promptly',
    'arrived promptly', 'arrived on time', 'right on schedule',
    'punctual', 'right on time', 'on the dot', 'exactly on time', 'ahead of schedule', 'arrived early', 'came early',
    'showed up early', 'on schedule', 'early', 'before the window', 'promptly arrived', 'was prompt', 'were prompt',
  ]),
  ...judged('punctuality', -0.8, [
    'late', 'tardy', 'no show', 'no showed', 'noshow', 'stood up', 'stood us up', 'stood me up', 'never showed',
    'never came', 'never arrived', 'didnt show', 'didn t show', 'hours late', 'running late', 'ran late', 'delayed',
    'showed up late', 'late arrival', 'missed the appointment', 'missed our appointment', 'missed my appointment',
    'waited all day', 'waiting all day', 'wasted my day', 'wasted the day', 'took the day off for nothing',
    'behind schedule', 'rescheduled', 'kept rescheduling', 'canceled last minute', 'cancelled last minute',
    '# hours late', '# hour late', '# minutes late', 'an hour late', 'hour late', 'past the window', 'after the window',
    'outside the window', 'hour past', 'hours past', 'waited # hours', 'waited hours', 'waiting # hours', 'waited around',
    'kept us waiting', 'kept me waiting', 'nobody came', 'no one came', 'nobody showed', 'no one showed', 'whenever he feels like',
    'whenever they feel like', 'whenever they want',
    'running behind', 'an hour behind', 'hours behind', 'made us wait', 'made me wait', 'pushed back', 'kept pushing',
    'didnt make it', 'didnt come', 'didnt turn up', 'turned up late', 'end of the window', 'last minute',
  ]),
};

const responsiveness: Table = {
  ...acts('responsiveness', 0.4, ['emergency service', 'emergency call', 'emergency visit', 'came out']),
  ...acts('responsiveness', 0.5, [
    'called back', 'call back', 'callback', 'calls back', 'called me back', 'call me back', 'called us back', 'call us back',
    'returned my call', 'returned our call', 'returned the call', 'answered the phone', 'answer the phone', 'answers',
    'answer', 'answered', 'picked up', 'respond', 'responds', 'responded', 'replied', 'reply', 'got back to', 'get back to',
  ]),
  ...targets('responsiveness', [
    'response', 'response time',
    'scheduling', 'appointment', 'booked', 'booking', 'got us in', 'got me in', 'fit us in', 'fit me in', 'availability',
    'available', 'came out', 'come out', 'sent someone', 'turnaround', 'follow up', 'followed up', 'get back to',
    'got back to', 'reply', 'replied', 'emergency', 'emergency call', 'after hours', 'weekend', 'same day', 'next day',
  ]),
  ...judged('responsiveness', 0.8, [
    'same day', 'next day', 'next morning', 'same afternoon', 'that afternoon', 'that evening', 'within # minutes',
    'within # hours', 'within minutes', 'within hours', 'in # minutes', 'got back to', 'get back to', 'got back to me',
    'got us on the schedule', 'got me on the schedule', 'fit us in', 'fit me in', 'first ring', 'took my call',
    'easy to schedule', 'easy to book', 'quick to schedule', 'came right out', 'came right over', 'came over right away',
    'speedy', 'prompt service', 'fast service', 'quick service', 'quick turnaround', 'fast turnaround', 'within a day',
    'within the day', 'available 24', 'earliest available', 'on short notice', 'short notice',
    'under an hour', 'in under an hour', 'less than an hour',
    'responsive', 'quick response', 'fast response', 'prompt response', 'same day service', 'same day appointment',
    'came out the same day', 'came out same day', 'within the hour', 'within an hour', 'within hours', 'right away',
    'immediately', 'quickly responded', 'responded quickly', 'got us in the same day', 'got me in the same day',
    'squeezed us in', 'squeezed me in', 'fit us in the same day', 'called right back', 'called me right back', 'promptly',
  ]),
  ...judged('responsiveness', -0.8, [
    'unresponsive', 'no response', 'never called back', 'never responded', 'never returned', 'never heard back',
    'no call back', 'no callback', 'no one called', 'nobody called', 'took forever to get', 'took weeks', 'took a week',
    'weeks to get', 'days to get', 'hard to reach', 'impossible to reach', 'couldn t reach', 'couldnt reach', 'voicemail',
    'left messages', 'left several messages', 'left a message', 'on hold', 'put on hold', 'dropped the ball', 'ignored',
    'slow to respond', 'slow response',
    'ghosted', 'still waiting', 'took # days', 'took # weeks', 'took days', 'took weeks', 'waited # days', 'waited # weeks',
    '# days to', '# weeks to', 'a week to', 'never got back',
    'waited a week', 'wait a week', 'a week out', 'weeks out', 'another week', 'a week for',
    'hard to get hold of', 'get hold of', 'get ahold of', 'couldnt get anyone', 'no one picks up', 'nobody picks up',
    'goes to voicemail', 'went to voicemail', 'booked out', 'booked up', 'fully booked', 'slow to schedule',
    'took days to respond', 'took forever to respond', 'took forever', 'still havent heard', 'never heard from',
  ]),
};

const price: Table = {
  ...targets('price', [
    'price', 'prices', 'pricing', 'priced', 'cost', 'costs', 'costed', 'charge', 'charged', 'charges', 'charging',
    'bill', 'billed', 'billing', 'invoice', 'quote', 'quoted', 'estimate', 'estimated', 'fee', 'fees', 'hourly rate', 'rates',
    'paid', 'pay', 'paying', 'money', 'dollars', 'bucks', 'budget', 'value', 'deal', 'diagnostic fee', 'service fee',
    'trip charge', 'trip fee', 'service call fee', 'financing', 'discount', 'coupon', 'price tag', 'total',
  ]),
  ...judged('price', 0.7, [
    'affordable', 'inexpensive', 'reasonably priced', 'fairly priced', 'well priced', 'good value', 'great value',
    'good deal', 'great deal', 'bargain', 'competitive', 'upfront pricing', 'up front pricing', 'transparent pricing',
    'no hidden fees', 'saved us money', 'saved me money', 'worth every penny', 'worth the money', 'worth the price',
    'money well spent', 'less than expected', 'below the quote', 'under budget', 'honest pricing', 'fair pricing',
    'waived', 'waived the fee', 'no charge', 'free of charge', 'didnt charge', 'didn t charge',
    'pays for itself', 'paid for itself', 'less than i expected', 'less than we expected', 'cheaper than', 'beat the price',
    'matched the price', 'price match',
    'worth it', 'value for money', 'within budget', 'on budget', 'stuck to the quote', 'honored the quote', 'came in under',
    'matched the quote', 'no surprises', 'price was right', 'priced right', 'good rates', 'fair rates', 'fair quote',
    'discount', 'senior discount', 'military discount', 'cheaper than the other',
    'half what', 'half of what', 'half the price', 'fraction of the cost', 'fraction of the price',
  ]),
  ...judged('price', -0.8, [
    'overpriced', 'over priced', 'overcharged', 'over charged', 'overcharge', 'pricey', 'expensive', 'costly',
    'rip off', 'ripoff', 'ripped off', 'ripped us off', 'ripped me off', 'gouged', 'gouging', 'price gouging',
    'upsell', 'upsold', 'upselling', 'up sell', 'up sold', 'hidden fees', 'hidden fee', 'surprise fee', 'nickel and dimed',
    'nickel and dime', 'highway robbery', 'outrageous', 'exorbitant', 'steep', 'double the quote', 'twice the quote',
    'more than quoted', 'more than the quote', 'higher than quoted', 'not worth the money', 'waste of money',
    'scam', 'scammed', 'sticker shock', 'padded', 'inflated',
    'more than i expected', 'more than we expected', 'more than expected', 'way more', 'paid way more', 'an arm and a leg',
    'cost a fortune', 'too much money', 'too much', 'added fees', 'extra fees', 'extra charges',
    'gouge', 'gouged us', 'pricier', 'hard to justify', 'markup', 'mark up', 'premium prices', 'premium price',
    'over budget', 'unexpected charges', 'surprise charges', 'charged double', 'double charged', 'charged twice',
    'charged us for', 'not worth it', 'wasnt worth',
  ]),
};

const quality: Table = {
  ...targets('quality', [
    'work', 'job', 'workmanship', 'repair', 'repairs', 'fix', 'fixed', 'fixing', 'install', 'installed', 'installation',
    'installing', 'replacement', 'replaced', 'result', 'results', 'finished product', 'craftsmanship', 'running',
    'works', 'working', 'runs', 'solved', 'resolved', 'outcome', 'quality',
  ]),
  ...judged('quality', 0.8, [
    'works great', 'working great', 'works well', 'worked well', 'working well', 'works perfectly', 'working perfectly', 'runs great', 'running great', 'like new',
    'fixed it', 'fixed the problem', 'fixed the issue', 'problem solved', 'no more leaks', 'no leaks', 'quality work',
    'solid work', 'excellent work', 'great work', 'good work', 'great job', 'good job', 'excellent job', 'fantastic job',
    'amazing job', 'perfect job', 'top notch work', 'meticulous', 'thorough', 'flawless', 'nice clean install',
    'built to last', 'holding up', 'held up', 'has held up', 'still working', 'still works', 'blowing cold', 'cold air',
    'hot water again', 'back up and running', 'up and running', 'good as new',
    'ice cold', 'blowing ice cold', 'cooling again', 'working again', 'back to normal', 'been fine', 'fine since',
    'fine ever since', 'no issues since', 'no problems since', 'been great since', 'working since', 'hasnt leaked',
    'not a drop', 'dry ever since', 'quiet now', 'runs quiet', 'running smoothly', 'neat install', 'clean install',
    'bone dry', 'passed inspection', 'passed the inspection',
    'done right', 'did it right', 'right the first time', 'first time right', 'works like a charm', 'like a charm',
    'like a dream', 'sturdy', 'attention to detail', 'detail oriented', 'excellent workmanship', 'quality workmanship',
    'quality job', 'quality install', 'quality installation', 'built right',
  ]),
  ...judged('quality', -0.8, [
    'broke again', 'broken again', 'broke down again', 'still broken',
    'still leaking', 'still leaks', 'leaking again', 'leaks again', 'same problem', 'same issue', 'problem came back',
    'came back', 'not fixed', 'never fixed', 'didnt fix', 'didn t fix', 'failed again', 'shoddy', 'sloppy',
    'sloppy work', 'poor workmanship', 'poor quality', 'botched', 'half assed', 'hack job', 'hack', 'subpar', 'sub par',
    'cut corners', 'corners cut', 'cutting corners', 'redo', 'redone', 'had to redo', 'had to call another company',
    'tripped again', 'keeps tripping', 'lasted a week',
    'lasted a month', 'only lasted', 'made it worse', 'worse than before', 'code violation', 'not up to code',
    'died again', 'went out again', 'keeps going out', 'out again', 'still wont', 'still doesnt', 'still isnt', 'still not',
    'still no', 'still dont', 'same clog', 'same leak', 'same noise', 'same error', 'same code', 'every other day',
    'every few days', 'keeps jamming', 'wobbles', 'wobbly', 'crooked', 'uneven',
    'still drips', 'backed up again', 'clogged again', 'tripping again',
    'issues since', 'problems since', 'trouble since',
    'had to come back', 'came back twice', 'multiple visits', 'several visits', '# visits', 'third visit',
    'temporary fix', 'band aid', 'bandaid', 'recurring', 'again and again', 'poorly installed', 'installed wrong',
    'installed incorrectly', 'not level', 'fell off',
    // Damage done to the house is the result of the work too (GUIDELINES: "They scratched the floor moving the unit").
    'scratched', 'dented', 'chipped', 'nicked', 'damaged', 'put a hole', 'punched a hole', 'knocked a hole',
    'drilled through', 'drilled right through', 'took a chunk out',
  ]),
};

/**
 * A fault ("broke", "leaks", "no hot water") is usually the reason they were called, not a verdict on their work:
 * it judges quality only beside a word saying it happened after the job (see RECURRENCE).
 */
const malfunctions: Table = Object.fromEntries(
  [
    'stopped working', 'quit working', 'not working', 'failed', 'flooded', 'blowing warm', 'warm air',
    'no hot water', 'quit cooling', 'stopped cooling', 'quit heating', 'stopped heating', 'quit draining',
    'stopped draining', 'goes out', 'runs constantly', 'running constantly', 'constantly running', 'jams', 'jammed',
    'drips', 'dripping', 'leaks', 'drip', 'flicker', 'flickers', 'flickering', 'quit', 'trips', 'broke', 'broken',
    'falling apart', 'still runs', 'loose', 'came loose',
  ].map((w): [string, Entry] => [w, { aspect: 'quality', valence: -0.8, malfunction: true }]),
);

/** Words that place a fault after the job: "still leaks", "broke again", "flickering since", "now it trips". */
export const RECURRENCE: ReadonlySet<string> = new Set([
  'still', 'again', 'after', 'since', 'later', 'already', 'anymore', 'within', 'next', 'same', 'another',
  'every', 'now', 'afterwards', 'afterward', 'days', 'weeks', 'hours',
]);

const professionalism: Table = {
  ...targets('professionalism', [
    'attitude', 'manner', 'manners', 'demeanor', 'behavior', 'behaviour', 'treated', 'uniform', 'uniforms', 'appearance',
    'staff', 'office staff', 'crew', 'receptionist', 'dispatcher', 'customer service', 'bedside manner',
  ]),
  ...judged('professionalism', 0.8, [
    'professional', 'professionally', 'courteous', 'polite', 'respectful', 'friendly', 'kind', 'pleasant', 'nice',
    'personable', 'honest', 'trustworthy', 'trusted', 'genuine', 'considerate', 'patient', 'gentleman', 'class act',
    'went above and beyond', 'above and beyond', 'great attitude', 'good attitude', 'easy to work with', 'wonderful to work with',
    'respected our home', 'respectful of our home', 'treated us well', 'treated me well', 'treated us right', 'no pressure',
    'didnt pressure', 'didn t pressure', 'no hard sell', 'integrity', 'reliable', 'dependable', 'accommodating', 'helpful',
    'sweetheart', 'gem', 'well mannered', 'cordial', 'warm',
    'nicer', 'nicest', 'kindest', 'friendliest', 'uniformed', 'in uniform', 'id badge', 'introduced himself',
    'introduced herself', 'introduced themselves', 'apologized', 'apologize', 'apologetic', 'respectful of',
    'great people', 'good people', 'nice people', 'wonderful people', 'good guys', 'great guys', 'nice guy', 'great guy',
    'good guy', 'good folks', 'great folks', 'nice folks',
    'felt comfortable', 'felt safe', 'trust them', 'with respect', 'shoes off', 'took off his shoes', 'well groomed',
    'presentable', 'clean cut', 'positive attitude', 'good manners', 'gentle', 'caring', 'cared', 'genuinely cared',
    'went the extra mile', 'extra mile', 'bent over backwards', 'friendliness', 'courtesy',
  ]),
  ...judged('professionalism', -0.8, [
    'unprofessional', 'rude', 'rudely', 'disrespectful', 'condescending', 'arrogant', 'dismissive', 'snippy', 'curt',
    'impolite', 'hostile', 'yelled', 'argued', 'argumentative', 'lied', 'liar', 'lying', 'dishonest', 'shady', 'sketchy',
    'pushy', 'high pressure', 'pressured', 'hard sell', 'scare tactics', 'attitude problem', 'bad attitude', 'smoked',
    'smoking', 'swearing', 'cursing', 'on his phone', 'on their phone', 'on the phone the whole time', 'creepy',
    'untrustworthy', 'unreliable', 'lazy', 'careless', 'sexist', 'blamed', 'excuses', 'made excuses',
    'hung up', 'hung up on me', 'hung up on us', 'swore', 'smelled like', 'cigarettes', 'acted like', 'attitude',
    'talked down to', 'eye roll', 'rolled his eyes', 'mansplained', 'threatened',
    'talking down', 'talked down', 'like i was a child', 'like i was stupid', 'feel stupid', 'scare me', 'scare us',
    'scared me into', 'scared us into',
    'salesy', 'sales pitch', 'salesman', 'used car salesman', 'disrespect', 'disrespected', 'rudeness', 'unfriendly',
    'grumpy', 'nasty', 'mean', 'impatient',
  ]),
};

const communication: Table = {
  ...targets('communication', [
    'communication', 'communicated', 'communicate', 'communicating', 'explained', 'explain', 'explaining', 'explanation',
    'updates', 'update', 'updated', 'informed', 'text', 'texts', 'texted', 'called ahead', 'call ahead', 'heads up',
    'told', 'walked me through', 'walked us through', 'showed me', 'showed us', 'answered my questions',
    'answered all my questions', 'answered our questions', 'questions', 'options', 'photos', 'pictures', 'listened',
    'listen', 'kept us posted', 'kept me posted', 'kept us informed', 'kept me informed', 'in the loop',
  ]),
  ...judged('communication', 0.8, [
    'explained everything', 'explained the options', 'explained what', 'explained why', 'explained how', 'clear explanation',
    'took the time to explain', 'great communication', 'good communication', 'excellent communication', 'communicative',
    'kept us posted', 'kept me posted', 'kept us informed', 'kept me informed', 'kept us in the loop', 'kept me in the loop',
    'texted when', 'called ahead', 'called to let', 'gave us a heads up', 'gave me a heads up', 'heads up',
    'answered all my questions', 'answered all our questions', 'patiently answered', 'easy to understand', 'in plain english',
    'walked me through', 'walked us through', 'sent photos', 'sent pictures', 'showed me the', 'showed us the', 'listened',
    'transparent', 'upfront', 'up front', 'kept me updated', 'kept us updated', 'kept me in the loop', 'texted me',
    'texted us', 'called to let', 'sent a text', 'made sure i understood', 'made sure we understood', 'minutes ahead',
    '# minutes ahead', 'called after', 'followed up', 'follow up call', 'checked in', 'checked back',
    'gave me options', 'gave us options', 'laid out', 'went over everything', 'went over', 'broke it down', 'broke down',
    'before and after', 'in writing', 'written estimate', 'answered every question', 'answered questions',
    'patiently explained', 'good communicator', 'great communicator', 'communicator',
  ]),
  ...acts('communication', 0.5, [
    'explained', 'texted', 'let us know', 'let me know', 'emailed', 'mentioned', 'updated', 'informed', 'notified',
    'showed me', 'showed us', 'talked me through', 'talked us through', 'went over',
  ]),
  ...targets('communication', ['told us', 'told me']),
  ...judged('communication', -0.8, [
    'no communication', 'poor communication', 'bad communication', 'miscommunication', 'never told', 'didnt tell',
    'didn t tell', 'didnt explain', 'didn t explain', 'never explained', 'no explanation', 'left in the dark', 'no updates',
    'no update', 'no heads up', 'without telling', 'without asking', 'confusing', 'confused', 'vague', 'mumbled',
    'didnt listen', 'didn t listen', 'wouldnt listen', 'wouldn t listen', 'did not listen', 'talked down',
    'couldnt explain', 'couldn t explain', 'mixed messages', 'different answers', 'contradicting',
    'no idea what', 'pry', 'had to ask', 'had to chase', 'chasing them',
    'no call', 'no phone call', 'no text', 'without a call', 'without calling', 'didnt even call', 'nobody mentioned',
    'never mentioned', 'didnt mention',
    'hard to understand', 'couldnt understand', 'language barrier', 'no one told', 'nobody told', 'never heard',
    'never said', 'didnt say', 'without explaining', 'no explanation', 'poor communicator', 'bad communicator',
  ]),
};

const cleanliness: Table = {
  ...targets('cleanliness', [
    'cleaning', 'cleanliness', 'shoe covers', 'booties', 'boot covers', 'drop cloth', 'drop cloths', 'tarps', 'work area',
    'floors', 'carpet',
  ]),
  // Tidying up is good unless something says otherwise ("cleaned up poorly", "never cleaned up").
  ...acts('cleanliness', 0.6, [
    'clean up', 'cleaned up', 'cleanup', 'cleaned', 'swept', 'wiped', 'vacuumed', 'picked up', 'tidied', 'tidied up',
    'hauled', 'hauled off', 'took away',
  ]),
  // Dirt is bad, so "no dust" and "not a speck of dirt" praise.
  ...judged('cleanliness', -0.5, ['dust', 'dirt', 'mud', 'debris', 'trash', 'garbage', 'footprints', 'sawdust', 'grease']),
  ...judged('cleanliness', 0.8, [
    'spotless', 'tidy', 'neat', 'cleaner', 'immaculate', 'pristine', 'cleaned up after', 'cleaned up everything', 'cleaned everything', 'cleaned up nicely',
    'left it clean', 'left it cleaner', 'cleaner than', 'left no mess', 'no mess', 'not a speck', 'wore shoe covers',
    'wore booties', 'put on shoe covers', 'put on booties', 'laid down drop cloths', 'put down drop cloths',
    'put down tarps', 'laid down tarps', 'vacuumed', 'swept up', 'wiped down', 'hauled away', 'took the old',
    'picked up after', 'covered the floors', 'covered the floor', 'protected the floors', 'protected our floors',
    'floor protection', 'cleaner than we left', 'cleaner than before', 'swept', 'vacuumed up', 'cleaned up his mess',
    'cleaned up their mess', 'clean up after',
  ]),
  ...judged('cleanliness', -0.8, [
    'messy', 'mess', 'dirty', 'filthy', 'left a mess', 'made a mess', 'huge mess', 'big mess', 'muddy', 'tracked mud',
    'tracked dirt', 'footprints', 'left trash', 'left debris', 'left garbage', 'left the old', 'sawdust everywhere',
    'drywall dust', 'dust everywhere', 'no shoe covers', 'didnt clean', 'didn t clean', 'never cleaned', 'did not clean',
    'slob', 'slobs', 'stained', 'stains',
    'left all over', 'all over the floor', 'all over my floor', 'all over the carpet', 'left everywhere', 'shavings',
    'clippings', 'insulation everywhere', 'water everywhere', 'greasy', 'handprints', 'fingerprints',
    'puddle', 'left a puddle', 'soot',
    'mess everywhere', 'dirt everywhere', 'debris everywhere', 'left behind', 'grime', 'smudges', 'scuffed', 'scuff marks',
  ]),
};

const expertise: Table = {
  ...targets('expertise', [
    'knowledge', 'skill', 'skills', 'skilled', 'diagnosis', 'diagnostic', 'expertise', 'training', 'trained', 'licensed',
    'certified', 'know how', 'knew',
  ]),
  // Finding the fault is skill, whatever the (bad) part found: "diagnosed a bad flame sensor".
  ...acts('expertise', 0.5, ['diagnosed', 'diagnose', 'troubleshoot', 'troubleshooting', 'troubleshot', 'figured out', 'figure out', 'pinpointed', 'found the leak']),
  ...judged('expertise', 0.8, ['knew exactly what was wrong', 'knew what was wrong', 'figured out what was wrong', 'found what was wrong', 'found the problem', 'found the issue']),
  ...judged('expertise', 0.8, [
    'knowledgeable', 'knowledgable', 'knowledgeble', 'expert', 'experts', 'expertly', 'competent', 'skilled', 'skillful',
    'talented', 'pro', 'a pro', 'true professional', 'master', 'genius', 'wizard', 'seasoned', 'very experienced',
    'knew exactly', 'knew his stuff', 'knew her stuff', 'knew their stuff', 'knows his stuff', 'knows her stuff',
    'knows their stuff', 'knew what he was doing', 'knew what she was doing', 'knew what they were doing', 'figured it out',
    'figured out the problem', 'diagnosed the problem', 'diagnosed it', 'found the problem', 'found the issue',
    'pinpointed the problem', 'quickly diagnosed', 'quickly found', 'spotted', 'caught', 'efficient', 'efficiently',
    'smart', 'sharp', 'years of experience', 'decades of experience', 'been doing this', 'doing this a long time',
    'knew exactly what', 'knows exactly', 'found the source', 'tracked down', 'tracked it down',
    'experienced', 'lots of experience', 'a lot of experience', 'inside and out', 'knew right away', 'knew immediately',
    'knew instantly', 'clearly knows', 'really knows', 'knows his', 'knows her', 'knows their', 'knows what', 'knew what',
    'knows how', 'knew how', 'know what theyre doing', 'know what they are doing', 'knows what hes doing',
    'know what hes doing', 'knows what shes doing',
    'knows his trade', 'master plumber', 'master electrician', 'identified the problem', 'identified the issue',
    'correctly diagnosed', 'quickly figured', 'figured out what', 'problem solver', 'troubleshooter', 'well trained',
    'highly trained', 'really knew', 'definitely knew',
  ]),
  ...judged('expertise', -0.8, [
    'incompetent', 'clueless', 'inexperienced', 'amateur', 'amateurs', 'unqualified', 'untrained', 'no idea',
    'had no idea', 'didnt know', 'didn t know', 'did not know', 'misdiagnosed', 'wrong diagnosis', 'guessing', 'guessed',
    'trial and error', 'couldnt figure', 'couldn t figure', 'could not figure', 'couldnt find', 'couldn t find',
    'could not find', 'had to look it up', 'youtube', 'wrong part', 'wrong parts', 'replaced the wrong', 'in over his head',
    'in over their heads', 'out of his depth',
    'googling', 'googled', 'looking it up', 'looked it up', 'seemed lost', 'totally lost', 'completely lost',
    'call his supervisor', 'called his supervisor', 'called his boss', 'call his boss', 'misdiagnosis',
    'no clue', 'had no clue', 'didnt even know', 'did not even know', 'doesnt even know', 'trainee', 'trainees', 'rookie',
    'rookies', 'no experience',
    'parts cannon', 'just replacing parts', 'threw parts at', 'learning on the job', 'new guy', 'lack of knowledge',
    'didnt know how', 'didnt know what', 'did not know how', 'not qualified', 'not knowledgeable',
  ]),
};

/** General opinions: they judge the nearest target in their clause (or only the sentence, with none nearby). */
const general: Table = {
  ...opinions(0.9, [
    'excellent', 'outstanding', 'exceptional', 'amazing', 'awesome', 'fantastic', 'wonderful', 'superb', 'perfect',
    'perfectly', 'incredible', 'phenomenal', 'stellar', 'top notch', 'first class', 'five star', '5 star', 'best',
    'flawless', 'impeccable', 'brilliant', 'terrific',
  ]),
  ...opinions(0.7, [
    'zero issues', 'zero problems', 'great', 'good', 'fine', 'solid', 'happy', 'pleased', 'satisfied', 'impressed', 'impressive', 'love', 'loved',
    'recommend', 'recommended', 'appreciate', 'appreciated', 'grateful', 'thankful', 'glad', 'relieved', 'smooth',
    'smoothly', 'easy', 'painless', 'hassle free', 'better', 'properly', 'correctly',
    'beautiful', 'beautifully', 'nice job', 'no complaints', 'no issues', 'no problems', 'worked out', 'lifesaver',
    'life saver', 'saved the day', 'thank you', 'thanks',
  ]),
  ...opinions(0.3, ['ok', 'okay', 'decent', 'adequate', 'acceptable', 'alright', 'fair enough', 'reasonable', 'fair']),
  ...opinions(-0.5, ['mediocre', 'meh', 'so so', 'average', 'disappointing', 'disappointed', 'frustrating', 'frustrated', 'annoyed', 'annoying', 'unhappy']),
  ...opinions(-0.8, [
    'bad', 'poor', 'poorly', 'terrible', 'horrible', 'awful', 'worst', 'worse', 'lousy', 'pathetic', 'unacceptable',
    'ridiculous', 'disgusting', 'nightmare', 'disaster', 'joke', 'useless', 'worthless', 'incompetence', 'avoid',
    'never again', 'never use', 'wouldnt recommend', 'would not recommend', 'do not recommend', 'dont recommend',
    'don t recommend', 'not recommend', 'regret', 'waste', 'wasted', 'angry', 'furious', 'upset', 'horrendous',
    'atrocious', 'headache', 'hassle',
  ]),
  // Descriptions of the fault, not judgements of the business: matched so their words judge nothing.
  'what was wrong': {}, 'whats wrong': {}, 'what is wrong': {}, 'something wrong': {}, 'went wrong': {},
  'what was going on': {}, 'the problem': {}, 'the issue': {}, 'a problem': {}, 'an issue': {}, 'bad part': {},
};

/** Words whose judgement depends on the aspect they qualify; `valence` is their sense elsewhere (if any). */
const conditional: Table = {
  fast: { aspect: 'responsiveness', valence: 0.7, by: { punctuality: 0.7, quality: 0.5, expertise: 0.6, communication: 0.5 } },
  quick: { aspect: 'responsiveness', valence: 0.7, by: { punctuality: 0.7, quality: 0.5, expertise: 0.6, communication: 0.5 } },
  quickly: { aspect: 'responsiveness', valence: 0.7, by: { punctuality: 0.7, quality: 0.5, expertise: 0.7 } },
  prompt: { aspect: 'responsiveness', valence: 0.7, by: { punctuality: 0.8 } },
  slow: { aspect: 'responsiveness', valence: -0.7, by: { punctuality: -0.7, quality: -0.4, communication: -0.6 } },
  forever: { aspect: 'responsiveness', valence: -0.7, by: { punctuality: -0.8, quality: -0.4 } },
  cheap: { aspect: 'price', valence: 0.5, by: { price: 0.6, quality: -0.7 } },
  cheaper: { aspect: 'price', valence: 0.6, by: { price: 0.6 } },
  low: { by: { price: 0.6, quality: -0.6, professionalism: -0.5 } },
  lower: { by: { price: 0.6 } },
  high: { by: { price: -0.6, quality: 0.6, expertise: 0.5, professionalism: 0.5 } },
  higher: { by: { price: -0.6 } },
  reasonable: { aspect: 'price', valence: 0.6, by: { price: 0.7 } },
  fair: { aspect: 'price', valence: 0.6, by: { price: 0.7, professionalism: 0.6 } },
  honest: { aspect: 'professionalism', valence: 0.7, by: { price: 0.7, professionalism: 0.8, communication: 0.7 } },
  clean: { aspect: 'cleanliness', valence: 0.7, by: { cleanliness: 0.8, quality: 0.6 } },
  careful: { aspect: 'cleanliness', valence: 0.6, by: { cleanliness: 0.7, quality: 0.6, professionalism: 0.6 } },
  thorough: { aspect: 'quality', valence: 0.7, by: { communication: 0.7, expertise: 0.7, cleanliness: 0.6 } },
  detailed: { aspect: 'communication', valence: 0.6, by: { quality: 0.6, price: 0.3 } },
  patient: { aspect: 'professionalism', valence: 0.7, by: { communication: 0.7 } },
  clear: { by: { communication: 0.6, price: 0.6 } },
  faster: { aspect: 'responsiveness', valence: 0.7, by: { punctuality: 0.7, expertise: 0.6, quality: 0.5 } },
  free: { by: { price: 0.7 } },
  extra: { by: { price: -0.5 } },
  additional: { by: { price: -0.4 } },
  hefty: { aspect: 'price', valence: -0.7 },
  worth: { aspect: 'price', valence: 0.6, by: { price: 0.7 } },
  killed: { by: { price: -0.5 } },
  wrong: { by: { expertise: -0.7, quality: -0.6, price: -0.5, communication: -0.5 } },
  insane: { by: { price: -0.7 } },
  premium: { by: { price: -0.5, quality: 0.5 } },
  early: { aspect: 'punctuality', valence: 0.6 },
  hours: { by: { punctuality: -0.3, responsiveness: -0.3 } },
  days: { by: { responsiveness: -0.4, punctuality: -0.3 } },
  weeks: { by: { responsiveness: -0.6 } },
};

/** Tables merge field by field, later ones winning: an aspect table's meaning keeps a conditional word's `by`. */
function merge(...tables: Table[]): Record<string, Entry> {
  const merged: Record<string, Entry> = {};
  for (const table of tables) {
    for (const [word, entry] of Object.entries(table)) merged[word] = { ...merged[word], ...entry, by: { ...merged[word]?.by, ...entry.by } };
  }
  return merged;
}

export const ENTRIES: Readonly<Record<string, Entry>> = merge(
  general, conditional, quality, malfunctions, professionalism, communication, punctuality, responsiveness, price, cleanliness, expertise,
);

/**
 * Words that invert what follows within a few tokens ("not on time", "never called back", "no mess"): the general
 * negators the polarity rules use, and words that deny an aspect in reviews ("zero communication", "lacked care").
 */
export const NEGATORS: ReadonlySet<string> = new Set([...STRONG_NEGATORS, ...WEAK_NEGATORS, 'lack', 'lacked', 'lacking', 'zero', 'less']);

/** Tokens a negation does not cross. */
export const NEGATION_STOPS: ReadonlySet<string> = new Set(['but', 'however', 'although', 'though', 'yet', 'and', 'so', 'because', 'which', 'that', 'who', 'after', 'until', 'while', 'when']);

export const INTENSIFIERS: Readonly<Record<string, number>> = {
  very: 1.4, really: 1.3, extremely: 1.6, super: 1.4, so: 1.3, incredibly: 1.6, absolutely: 1.5, truly: 1.3,
  totally: 1.4, completely: 1.4, highly: 1.4, exceptionally: 1.5, most: 1.3, quite: 1.2, too: 1.3, way: 1.4,
  insanely: 1.6, ridiculously: 1.5, utterly: 1.5, seriously: 1.3, such: 1.3, always: 1.2, all: 1.1,
};

export const DOWNTONERS: Readonly<Record<string, number>> = {
  slightly: 0.5, somewhat: 0.6, kinda: 0.6, fairly: 0.8, pretty: 0.9, mostly: 0.8,
  almost: 0.6, nearly: 0.6,
};

/** Multi-word modifiers rewritten to one token before matching ("kind of late" must not read "kind" as praise). */
export const MODIFIER_PHRASES: Readonly<Record<string, string>> = {
  'kind of': 'somewhat', 'sort of': 'somewhat', 'a bit': 'somewhat', 'a little': 'somewhat', 'a tad': 'somewhat',
  'a little bit': 'somewhat',
};

/** Clause boundaries: the clause after a contrast carries the writer's conclusion. */
export const CONTRAST_MARKERS: ReadonlySet<string> = new Set([...CONTRAST, ...CONCESSIVE, 'unfortunately', 'still', 'otherwise', 'despite']);

/** Words that mark urgent work for the FAQ ("Do they do emergency work?"). */
export const URGENCY_TERMS: readonly string[] = [
  'emergency', 'same day', 'after hours', 'middle of the night', 'late at night', 'on a sunday', 'on a saturday',
  'weekend', 'holiday', 'christmas', 'thanksgiving', '24 7', 'urgent', 'flooding', 'burst pipe', 'no heat', 'no ac',
  'no air', 'no hot water', 'power out', 'sparking',
];

/**
 * Everyday words for services: a catalogue service whose name contains a `name` word is meant when a review says
 * one of its `words`. `repair` and `install` tell apart the repair and the installation of the same equipment.
 */
export const SERVICE_WORDS: readonly { name: string[]; words: string[] }[] = [
  { name: ['ac', 'air conditioning', 'air conditioner', 'cooling'], words: ['ac', 'a c', 'a/c', 'air conditioner', 'air conditioning', 'air con', 'central air', 'cooling', 'condenser', 'compressor', 'refrigerant', 'freon', 'evaporator coil', 'blowing warm', 'not cooling', 'cold air'] },
  { name: ['heat pump'], words: ['heat pump', 'heatpump'] },
  { name: ['mini split', 'ductless'], words: ['mini split', 'minisplit', 'ductless'] },
  { name: ['furnace', 'heating'], words: ['furnace', 'heater', 'heating', 'no heat', 'pilot light'] },
  { name: ['duct'], words: ['duct', 'ducts', 'ductwork', 'air ducts', 'vents'] },
  { name: ['thermostat'], words: ['thermostat', 'nest', 'ecobee'] },
  { name: ['tankless'], words: ['tankless'] },
  { name: ['water heater'], words: ['water heater', 'hot water heater', 'hot water', 'water tank', 'anode'] },
  { name: ['drain', 'clog'], words: ['drain', 'drains', 'clog', 'clogged', 'backed up', 'backup', 'snake', 'snaked', 'hydro jet', 'hydrojet'] },
  { name: ['sewer'], words: ['sewer', 'sewer line', 'main line', 'septic'] },
  { name: ['leak', 'pipe', 'repipe', 'plumbing'], words: ['leak', 'leaking', 'leaky', 'pipe', 'pipes', 'burst pipe', 'slab leak', 'repipe', 'water line'] },
  { name: ['toilet'], words: ['toilet', 'toilets', 'commode', 'running toilet'] },
  { name: ['faucet', 'fixture', 'sink'], words: ['faucet', 'faucets', 'sink', 'fixture', 'fixtures', 'shower valve'] },
  { name: ['disposal'], words: ['garbage disposal', 'disposal'] },
  { name: ['sump'], words: ['sump pump', 'sump'] },
  { name: ['softener', 'filtration', 'water treatment'], words: ['water softener', 'softener', 'filtration', 'filter system', 'reverse osmosis'] },
  { name: ['panel'], words: ['panel', 'breaker panel', 'electrical panel', 'breaker box', 'fuse box', 'breakers', 'breaker', 'amp service', '200 amp'] },
  { name: ['ev', 'charger'], words: ['ev charger', 'car charger', 'charger', 'charging station', 'tesla', 'level 2'] },
  { name: ['generator'], words: ['generator', 'generac', 'standby generator', 'backup power'] },
  { name: ['lighting', 'light', 'fan'], words: ['lights', 'lighting', 'recessed lights', 'can lights', 'ceiling fan', 'fan', 'fixture', 'chandelier', 'dimmer'] },
  { name: ['outlet', 'wiring', 'rewire', 'electrical'], words: ['outlet', 'outlets', 'gfci', 'wiring', 'rewire', 'rewiring', 'switch', 'switches', 'electrical', 'sparking', 'flickering', 'tripping', 'power'] },
  { name: ['surge'], words: ['surge protector', 'surge protection', 'whole home surge'] },
  { name: ['smoke', 'detector'], words: ['smoke detector', 'smoke detectors', 'carbon monoxide'] },
  { name: ['inspection', 'safety'], words: ['inspection', 'inspected', 'safety check'] },
  { name: ['maintenance', 'tune up', 'tune-up'], words: ['maintenance', 'tune up', 'tuneup', 'checkup', 'check up', 'maintenance plan', 'service plan', 'membership'] },
];

/**
 * Words of how a customer found, rates or has long used the business rather than of the work ("after reading
 * reviews on Yelp", "five stars", "long-time customer"): a phrase with one of them is review boilerplate, never a topic.
 */
export const REVIEW_TALK: ReadonlySet<string> = new Set([
  'review', 'reviews', 'reviewed', 'star', 'stars', 'rating', 'google', 'yelp', 'nextdoor', 'facebook', 'angi', 'angie',
  'angies', 'bbb', 'homeadvisor', 'thumbtack', 'online', 'website', 'recommend', 'recommended', 'recommendation', 'referral',
  'customer', 'customers',
]);

export const INSTALL_WORDS: ReadonlySet<string> = new Set(['install', 'installed', 'installation', 'installing', 'new', 'replace', 'replaced', 'replacement', 'replacing', 'upgrade', 'upgraded', 'put in', 'swap', 'swapped']);
export const REPAIR_WORDS: ReadonlySet<string> = new Set(['repair', 'repaired', 'fix', 'fixed', 'fixing', 'broke', 'broken', 'leak', 'leaking', 'stopped', 'not working', 'died', 'quit']);
