// Our own general-English additions to the packaged lexicons, and the word classes the polarity rules read (data only).

const opinions = (valence: number, words: string): [string, number][] => words.split(' ').map((w) => [w, valence]);

/**
 * Evaluative customer language that AFINN, VADER and wink leave out or get wrong, on VADER's −4..4 scale. Entries
 * are general review vocabulary (quality, service, value, time, comfort, taste, entertainment); they override the
 * packaged lexicons, so a correction here wins over the trained model's base lexicon without retraining.
 */
export const SUPPLEMENT: ReadonlyMap<string, number> = new Map([
  ...opinions(3.2, 'masterpiece phenomenal'),
  ...opinions(
    3,
    'superbly brilliantly flawless flawlessly outstanding exceptional stellar terrific top-notch topnotch impeccable spectacular gorgeous breathtaking',
  ),
  ...opinions(2.8, 'incredible masterful scrumptious delightful'),
  ...opinions(2.5, 'genius remarkable mouthwatering spotless immaculate riveting captivating heartwarming must-have'),
  ...opinions(2.4, 'inspiring'),
  ...opinions(
    2.2,
    'legendary unforgettable courteous tasty flavorful gracious enjoyable charming hilarious uplifting impressed',
  ),
  ...opinions(
    2,
    'knowledgeable attentive meticulous helpful pleasant pleasantly welcoming accommodating gripping engaging compelling entertaining insightful fave favorite favourite',
  ),
  ...opinions(
    1.8,
    'memorable reliable dependable polite punctual efficient efficiently thorough comfortable comfy cozy recommendable user-friendly seamless seamlessly stylish convenient',
  ),
  ...opinions(1.6, 'durable sleek'),
  ...opinions(
    1.5,
    'believable sturdy professional professionally responsive prompt promptly affordable bargain recommended intuitive touching smoothly handy',
  ),
  ...opinions(1.2, 'unique solid clean underrated convincing decent quick quickly speedy timely smooth convenience'),
  ...opinions(1, 'thoroughly inexpensive reasonably cleanly acceptable ok'),
  ...opinions(0.9, 'okay'),
  ...opinions(0.8, 'warm adequate fast'),
  ...opinions(0.6, 'simple'),
  ...opinions(-0.3, 'average'),
  ...opinions(-0.5, 'forever'),
  ...opinions(-0.6, 'slowly waited'),
  ...opinions(-0.8, 'expensive refunded returned'),
  ...opinions(-1, 'amateur pricey lukewarm sticky late predictable wooden scratched so-so'),
  ...opinions(-1.2, 'lack greasy noisy slow delay delays refund cheesy corny unclear meh blah breaks clogs leaky'),
  ...opinions(-1.3, 'delayed shallow awkward'),
  ...opinions(
    -1.5,
    'clogged cheaply broke lacks unreadable cramped sluggish tardy headache messy complaint complaints complained cliche cliched clichéd mindless superficial clumsy confusing glitch glitches dies died leaks leaked leaking cracked',
  ),
  ...opinions(-1.6, 'lacking dull'),
  ...opinions(
    -1.8,
    'mediocre unimpressive careless carelessly amateurish inefficient dismissive tedious bland blandly stale soggy overcooked undercooked smelly uncomfortable hassle mess overrated meaningless senseless pretentious unimpressed regret regretted glitchy buggy crashes crashed',
  ),
  ...opinions(
    -2,
    'unreliable flimsy broken subpar sub-par lackluster lacklustre underwhelming underwhelmed letdown inferior sloppy sloppily unresponsive unhelpful rudely condescending arrogant clueless overcharge tasteless flavorless grimy stinks unrecommended unpleasant pointless unconvincing malfunction malfunctioned malfunctions',
  ),
  ...opinions(-2.2, 'faulty junky inept ineptly disrespectful overpriced overcharged'),
  ...opinions(
    -2.5,
    'shoddy defective disappointment incompetent incompetence unprofessional worthless unusable unwatchable filthy nightmare unacceptable',
  ),
  ...opinions(-2.8, 'ripoff rip-off inedible disaster'),
]);

/**
 * Words the packaged lexicons score that carry no opinion in reviews ("tech support", "third party", "sound quality",
 * "kind of") or that the rules handle as structure (negators).
 */
export const NOT_OPINIONS: ReadonlySet<string> = new Set(
  'party support quality resolution respect certain kind play wonder go no not never nothing nobody none neither nor nowhere cannot without hardly barely scarcely'.split(
    ' ',
  ),
);

const words = (s: string): ReadonlySet<string> => new Set(s.split(' '));

/** Negators that deny outright; a negative word after them usually praises ("no problems", "never disappointed"). */
export const STRONG_NEGATORS = words('no never without nothing none nobody nowhere neither nor');
/** Negators that soften or deny the next predicate ("not great", "hardly worth it"). */
export const WEAK_NEGATORS = words(
  'not cannot hardly barely scarcely dont didnt doesnt isnt wasnt wont cant couldnt wouldnt shouldnt arent werent havent hasnt hadnt aint',
);

/** Multipliers for the next word: intensifiers above 0, downtoners below. */
export const BOOSTERS: ReadonlyMap<string, number> = new Map([
  ...opinions(0.4, 'extremely incredibly absolutely utterly'),
  ...opinions(0.3, 'very really so super totally completely highly truly seriously'),
  ...opinions(0.2, 'too most such'),
  ...opinions(0.1, 'quite pretty'),
  ...opinions(-0.1, 'rather'),
  ...opinions(-0.2, 'fairly little bit'),
  ...opinions(-0.3, 'slightly somewhat kinda'),
]);

/** Contrast that makes the following clause the verdict ("nice staff, but the food was cold"). */
export const CONTRAST = words('but however yet except');
/** Concessions: "although it was late, ..." sets one clause against the other. */
export const CONCESSIVE = words('although though whereas');
/** Subordinators: they end a negation's scope like punctuation does. */
export const SUBORDINATORS: ReadonlySet<string> = new Set([...CONCESSIVE, 'while']);
/**
 * Markers of unrealised or wished-for states: praise after them is not praise ("I expected better", "if you like
 * waiting, go there", "it should be cleaner").
 */
export const IRREALIS = words(
  "wish hoping hoped expected expect expecting if would've should've could've wanted should could need needed needs",
);
/** Words before "like" that make it the verb of liking rather than a comparison ("I like" vs "tastes like"). */
export const LIKE_SUBJECTS = words(
  'i we you they he she really definitely also truly totally still just would did do does people kids will not',
);
/** Verbs whose "again"/"back" states the intent to return ("will be back", "won't order again"). */
export const REPEAT_VERBS = words(
  'be come coming go going return returning order ordering buy buying purchase visit eat use hire call shop stay recommend see watch try',
);
export const BACK_VERBS = words('be come coming go going head heading');
/**
 * Function words and small talk: they never count as evidence for the learned fallback, so a plain statement of fact
 * ("We called on Tuesday.") stays neutral.
 */
export const FUNCTION_WORDS = words(
  "a an the this that these those it its it's i me my mine we us our you your he him his she her they them their i'm i've i'd i'll we're we've we'll they're they've you're you've and or of to in on at for with from by as is are was were be been being am do does did have has had will would can may might must shall there here then than so just also very really what which who whom when where why how all any some one two three about into over after before up down out off again once if while because until um oh well yes get got go went make made s t d ll ve re m monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow",
);

/**
 * Fixed expressions whose words mislead one by one ("save your money", "steer clear") or say nothing alone
 * ("on time", "thumbs up"); VADER scale. Matched before single words, whose own scores they replace.
 */
export const PHRASES: ReadonlyMap<string, number> = new Map(
  [
    ...opinions(
      -2.5,
      'save_your_money save_yourself steer_clear stay_away never_again fell_apart stopped_working a_joke buyer_beware',
    ),
    ...opinions(
      -2,
      'look_elsewhere go_elsewhere thumbs_down waste_of send_it_back sent_it_back sending_it_back returning_it out_of_luck',
    ),
    ...opinions(-1.5, 'keep_looking no_show'),
    ...opinions(-1, 'at_best'),
    // Denials that praise: matched as wholes, so their "not" / "nothing" never negates what follows.
    ...opinions(
      0,
      'not_only nothing_short_of never_ceases_to no_doubt can_not_say_enough cannot_say_enough could_not_say_enough',
    ),
    ...opinions(
      2,
      'can_not_beat cannot_beat could_not_ask_for could_not_have_asked_for no_complaints can_not_complain cannot_complain will_not_regret would_not_regret can_not_thank cannot_thank could_not_thank would_not_hesitate will_not_hesitate can_not_fault cannot_fault could_not_fault nothing_bad_to_say never_disappoints never_disappointed',
    ),
    ...opinions(
      2,
      'do_not_miss dont_miss do_not_hesitate dont_hesitate can_not_wait cannot_wait cant_wait can_not_go_wrong cannot_go_wrong cant_go_wrong',
    ),
    ...opinions(1.5, 'on_time right_away'),
    ...opinions(2, 'thumbs_up'),
    // Idioms whose words say otherwise ("to die for", "a steal", "blown away", "left a lot to be desired").
    ...opinions(
      2.5,
      'to_die_for over_the_moon blown_away a_cut_above the_extra_mile bent_over_backwards bend_over_backwards',
    ),
    ...opinions(
      2,
      'a_steal hit_the_spot hits_the_spot no_brainer real_deal spot_on hats_off bang_for_the_buck bang_for_your_buck bang_for_my_buck',
    ),
    ...opinions(-2, 'went_downhill gone_downhill going_downhill to_be_desired'),
    ...opinions(-1, 'run_of_the_mill'),
    // Understatement: a denied complaint that, as a whole, is mild praise ("not bad at all"); other denied complaints
    // keep a learned weight ("no problem" praises, "didn't bother to call" does not).
    ...opinions(1.5, 'not_bad not_too_bad not_half_bad'),
    ...opinions(2.5, 'above_and_beyond second_to_none'),
  ].map(([phrase, valence]) => [phrase.replace(/_/g, ' '), valence]),
);

/** Manner adverbs that side with a complaint before them ("breaks easily", "drains quickly"). */
export const MANNER = words('easily easy quickly fast');
/** After a comparative, "than" + one of these means the reviewed thing loses ("sounds better than these"). */
export const COMPARED_SELF = words('this these that it them');
