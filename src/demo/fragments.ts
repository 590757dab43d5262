// Sentence fragments the review writer composes from; data only, assembled in compose.ts.
//
// Fragments are clauses without final punctuation, lowercase unless they open with a name, so they can be
// joined ("…, but …") and capitalised later. Tokens in braces are filled per review:
//   {tech} {tech2}  a technician as customers name them, or "the plumber" when unnamed
//   {he} {his} {him} that technician's pronoun ("they" when unknown: never follow {he} with "was")
//   {i} {my} {me}   the customer, singular or household ("we": never follow {i} with "was" or "'m")
//   {svc} {svc2}    the service in everyday words; {co} the company; {price} {duration} {day} {month} {temp} {source}

export type Aspect =
  | 'punctuality' | 'responsiveness' | 'price' | 'quality'
  | 'professionalism' | 'communication' | 'cleanliness' | 'expertise';

export interface AspectFragments {
  positive: readonly string[];
  negative: readonly string[];
  /** Soft complaints that still fit a four- or five-star review. */
  mild: readonly string[];
}

export const ASPECTS: Record<Aspect, AspectFragments> = {
  punctuality: {
    positive: ['{tech} showed up right on time', '{tech} arrived at the very start of the window', 'they were here within the two-hour window like they promised',
      '{tech} got here ten minutes early', 'right on time, which never happens with contractors', 'arrived exactly when they said',
      '{tech} texted when {he} left the last job and was here on schedule', 'no waiting around all day', 'punctual and polite',
      'they were on time both days of the job'],
    negative: ['{tech} was not on time', '{tech} showed up almost {hours} hours late', 'nobody showed up the first day', '{i} waited all day and nobody came',
      'they missed the appointment window twice', 'the tech arrived late with no heads-up', 'nobody showed up until after 6',
      '{i} took a day off work and they never showed', 'the window was 8 to 12 and {tech} rolled in at 3', 'late again, second time in a row'],
    mild: ['{tech} ran about 30 minutes behind', 'they were a little late', 'the arrival window was pretty wide'],
  },
  responsiveness: {
    positive: ['they answered on the first ring', '{i} got a call back within 15 minutes', 'they had someone out the same day', 'they got {me} in the next morning',
      'they came out on a {day} night', 'booked online and got a confirmation right away', 'super quick to respond',
      'called at 11pm with an emergency and they still came', 'they squeezed {me} in the same afternoon', 'scheduling was quick and easy'],
    negative: ['they never called back', '{i} left three voicemails and nobody returned them', 'it took a week to get an appointment',
      'the office never called back about the warranty', 'no response to {my} emails', 'they kept pushing the appointment back',
      'took forever to get someone out', '{i} waited four days for someone to look at the {svc}', 'nobody picked up the phone',
      'they did not respond for days'],
    mild: ['it took a couple days to get on the schedule', 'the office was slow to confirm'],
  },
  price: {
    positive: ['the price was fair', 'pricing was upfront and reasonable', 'they charged exactly what they quoted', 'cheaper than the other two quotes {i} got',
      'no hidden fees', 'the quote was {price} and that is what {i} paid', 'reasonable for what they did', 'they waived the service call fee',
      'honest pricing, no upselling', 'worth every penny'],
    negative: ['the price was steep', 'way overpriced', 'they charged {price} for about an hour of work', 'the final bill was higher than the quote',
      '{i} got a second quote that was half the price', 'it felt like a hard upsell the whole time', 'the service call fee is ridiculous',
      'not cheap, that is for sure', 'they tacked on fees {i} never agreed to', 'the price went up after they were already here'],
    mild: ['a little pricey', 'not the cheapest option', 'the price was on the high side', 'it cost a bit more than {i} expected'],
  },
  quality: {
    positive: ['the {svc} works perfectly now', 'everything has worked great since', 'they did the job right the first time', 'really careful work',
      'the {svc} has been running great ever since', 'no corners cut', 'the work looks great', 'it has been months and no issues', 'fixed it right the first time',
      'solid work, {i} could not be happier'],
    negative: ['the {svc} broke again two days later', 'the problem came right back', 'they did not fix the actual problem', '{i} had to call someone else to redo it',
      'sloppy work', 'the {svc} still does not work right', 'now it is worse than before', 'the repair did not even last a week',
      'not fixed, just patched', 'it stopped working again within a month'],
    mild: ['{i} had to have them come back once to adjust it', 'there was a small follow-up needed'],
  },
  professionalism: {
    positive: ['{tech} was polite and professional', 'very professional from start to finish', '{tech} was respectful of {my} home', 'courteous and friendly',
      '{tech} treated {my} house like {his} own', 'a true professional', 'professional, friendly and honest', '{tech} was patient with all {my} questions',
      '{tech} was super friendly with {my} kids and the dog'],
    negative: ['{tech} was rude', 'unprofessional from start to finish', 'the tech was on {his} phone the whole time', '{tech} was dismissive',
      'nobody was courteous', '{tech} argued with {me} about the bill', 'not professional at all', '{tech} acted like {my} call was a waste of {his} time'],
    mild: ['{tech} was a bit short with {me}', 'a little rushed'],
  },
  communication: {
    positive: ['{tech} explained everything clearly', '{tech} walked {me} through the options before starting', 'they texted updates all along the way',
      '{tech} sent photos of the problem', 'clear communication from the office', '{tech} took the time to answer every question',
      'they called ahead to let {me} know {tech} was on the way', '{tech} explained what went wrong in plain English', 'no pressure, just honest explanations',
      'they kept {me} posted the whole time'],
    negative: ['nobody told {me} anything', '{tech} did not explain what {he} did', 'the office gave {me} three different answers', 'no updates at all',
      '{i} had no idea what was going on', 'they never mentioned the extra charge', 'zero communication', 'could not get a straight answer',
      '{tech} barely said a word and left', 'the invoice did not match what {tech} told {me}'],
    mild: ['the office could be better about confirming appointments', '{i} wish they had called when running late'],
  },
  cleanliness: {
    positive: ['no mess left behind', '{tech} wore shoe covers and cleaned up after', 'left the place cleaner than {i} found it', 'they put down drop cloths',
      'they vacuumed up the dust before leaving', 'cleaned up everything', 'very tidy', 'they took the old parts away and swept up',
      'not a speck of dust left'],
    negative: ['left a mess in the garage', 'muddy footprints all over {my} carpet', 'left the old parts in {my} driveway', 'drywall dust everywhere',
      'they did not clean up at all', 'water all over the floor when they left', 'left trash in the attic', '{i} spent an hour cleaning up after them',
      'no shoe covers, tracked dirt everywhere'],
    mild: ['left a little dust behind', 'a few scraps left on the floor'],
  },
  expertise: {
    positive: ['{tech} knew exactly what the problem was', '{tech} diagnosed it in minutes', '{tech} really knows {his} stuff', 'found the problem two other companies missed',
      'very knowledgeable', '{tech} explained the options like an expert', 'you can tell {tech} has years of experience', 'figured it out quickly',
      '{tech} knew the equipment inside and out'],
    negative: ['{tech} had no clue how to fix it', 'it took {tech} three hours to figure out a simple problem', '{tech} had to call {his} supervisor twice',
      'they misdiagnosed it', 'clearly inexperienced', 'they guessed at the problem and replaced parts that were not broken',
      '{tech} did not seem to know the equipment', 'the tech was obviously still learning'],
    mild: ['it took a while to find the problem', '{tech} had to call the office once for advice'],
  },
};

/** How a tech's first mention reads when the customer does not name them. */
export const ROLE_NOUNS = {
  cooling: ['the tech', 'the technician', 'the AC tech', 'the HVAC tech'],
  plumbing: ['the plumber', 'the tech', 'the technician'],
  electrical: ['the electrician', 'the tech', 'the technician'],
} as const;

export const OPENER_TIMES = ['', '', '', 'last week ', 'yesterday ', 'on {day} ', 'a couple of weeks ago ', 'this morning ', 'over the weekend ', 'back in {month} '];
export const OPENER_ENDINGS = [', so {i} called {co}', '. Called {co}', ' and {i} found {co} online', '', '', '. {i} called {co} after reading reviews on {source}',
  ', so {i} gave {co} a call'];

/** What the technician did; repairs have a fault to find, installs a job to finish. */
export const JOB = {
  repair: {
    neutral: ['{tech} found {finding} and {work}', 'turned out to be {finding}. {tech} {work}', '{tech} {work}',
      '{tech} tracked it down to {finding} and had it sorted in {duration}', '{tech} came out, found {finding}, and {work}',
      'it was {finding}, which {tech} spotted right away', '{tech} {work} in {duration}'],
    negative: ['{tech} said it was {finding} and quoted {price}', 'they claimed it was {finding}', '{tech} supposedly {work}',
      '{tech} blamed it on {finding}', 'after {duration} of poking around {tech} decided it was {finding}'],
  },
  install: {
    neutral: ['{tech} {work}', '{tech} came out, found {finding}, and {work}', '{tech} {work} and walked {me} through the new setup',
      '{tech} {work}, start to finish in {duration}', 'the job took {duration}. {tech} {work}'],
    negative: ['{tech} supposedly {work}', '{tech} quoted {price} to start and the bill kept growing', 'the job dragged on for {duration} longer than promised',
      '{tech} {work}, eventually'],
  },
} as const;

export const DURATIONS = {
  repair: ['about an hour', '45 minutes', 'a couple of hours', 'half an hour', 'less than an hour', 'about two hours'],
  install: ['a full day', 'about six hours', 'two days', 'about eight hours'],
} as const;

export const TEAM = ['{tech} and {tech2} did the job together', '{tech} came out first and {tech2} finished the job', '{tech} and {tech2} were both here',
  '{tech2} helped {tech} with the heavy lifting'];

export const SECOND_SERVICE = {
  positive: ['while {tech} was here {i} also had {him} look at the {svc2}', '{i} also had them take care of the {svc2} while they were out',
    'they also took care of {my} {svc2}', 'bonus: {tech} sorted out the {svc2} too'],
  negative: ['{i} also had them look at the {svc2}, which cost extra of course', 'they also "fixed" the {svc2}, which is acting up again'],
} as const;

export const BACKGROUND = {
  positive: ['{i}\'ve used {co} for years', 'second time using {co}', 'found them on {source}', 'a neighbor recommended {co}',
    '{i} signed up for their maintenance plan last year', '{i} called three companies and {co} was the only one that could come out',
    'long-time customer here'],
  negative: ['{i} used them before with no problems, which is why this is so disappointing', 'first and last time using {co}',
    'found them on {source} and should have kept looking'],
} as const;

export const DETAILS = {
  positive: ['{tech} even showed {me} what to keep an eye on', '{tech} put on shoe covers without being asked', '{tech} gave {me} a few tips to keep the {svc} in good shape',
    '{tech} checked a couple of other things at no charge', 'the whole thing took {duration}', '{tech} sent a photo before arriving so {i} knew who to expect',
    '{tech} double-checked everything before leaving'],
  mixed: ['the {svc} works now, so there is that', 'in the end the problem got solved', '{tech} seemed new but tried hard', 'the second visit went better than the first'],
  negative: ['{i} had to take another day off work for the second visit', 'the office blamed the tech and the tech blamed the office',
    '{i} ended up paying another company to fix it', 'when {i} called to complain the manager hung up on {me}', 'still waiting on the refund they promised'],
} as const;

export const CLOSERS = {
  positive: ['highly recommend', 'would definitely recommend {co}', 'will use {co} again', '{co} has a customer for life', 'ask for {tech}', 'can\'t recommend them enough',
    'five stars', '10/10 would recommend', 'glad {i} found them', '{i}\'ll be calling them for everything from now on', 'thank you {co}', 'thanks {tech}',
    'so glad {i} called {co}', 'great company', 'don\'t bother calling anyone else'],
  mixed: ['it was ok', 'might use them again, might not', 'decent but not great', '{i}\'d probably shop around next time', 'not bad, not great',
    'average experience overall', 'three stars because the {svc} works now', 'hoping the fix holds', 'jury is still out'],
  negative: ['will not be using them again', 'save yourself the headache', 'avoid', 'look elsewhere', 'very disappointed', 'would give zero stars if {i} could',
    'buyer beware', 'do not recommend', 'never again', '{i}\'ll be calling someone else next time', 'what a waste of money', 'lesson learned'],
} as const;

export const CONTRAST_LINKS = [' but ', ', but ', ', though ', '. Only downside: ', '. That said, ', '; however, ', ', only complaint: '];
export const NEGATIVE_FIRST_LINKS = [', but ', ', although ', '. On the plus side, ', '. To be fair, '];

export const SHORT = {
  praiseWords: ['fast', 'friendly', 'fair', 'honest', 'professional', 'on time', 'knowledgeable', 'courteous', 'reliable', 'affordable', 'thorough',
    'quick', 'clean', 'efficient', 'helpful', 'polite'],
  techPraise: ['{tech} was great', '{tech} was awesome', '{tech} is the best', '{tech} was a rock star', '{tech} was super helpful', '{tech} was amazing',
    '{tech} did an excellent job', '{tech} was a lifesaver', 'great job {tech}', 'thank you {tech}'],
  servicePraise: ['great job on the {svc}', '{svc} fixed same day', '{svc} working again', 'love {co}', 'best {role} in town', 'great service on {my} {svc}',
    '{svc} fixed fast'],
  complaintWords: ['late', 'rude', 'overpriced', 'unreliable', 'sloppy', 'slow', 'dishonest', 'unprofessional', 'expensive'],
  techComplaints: ['{tech} was rude', '{tech} was late', 'ask for anyone but {tech}', '{tech} had no clue', '{tech} never came back to finish',
    '{tech} left a mess'],
  complaints: ['never showed up', 'never called back', '{svc} still broken', 'way overpriced for {duration} of work', 'do not use', 'terrible service',
    'total waste of money', 'nobody showed', '{svc} broke again a week later', 'worst {role} ever'],
  mixed: ['{svc} works but it cost way too much', 'ok service, a bit pricey', 'fine I guess', 'good work, slow to schedule', 'nice tech, high price',
    'got the {svc} fixed eventually', 'decent work but {tech} was late', 'works now, took two visits'],
} as const;

export const TITLES = {
  positive: ['Great service', '{svc} fixed same day', '{techFirst} is the best', 'Fast and fair', 'Highly recommend', 'Lifesavers', 'Excellent work',
    'Honest and professional', 'Will use again', 'Five stars', 'Great experience with {co}', 'Quick {svc} fix'],
  mixed: ['Mixed experience', 'OK but pricey', 'Good work, poor scheduling', 'Decent', 'Could be better'],
  negative: ['Disappointed', 'Never again', 'Overcharged', 'No-show', 'Poor service', 'Do not recommend', 'Terrible experience', '{svc} still broken'],
} as const;

export const TYPOS: Readonly<Record<string, string>> = {
  definitely: 'definately', recommend: 'reccomend', received: 'recieved', professional: 'proffesional', their: 'there',
  'a lot': 'alot', experience: 'experiance', appointment: 'appointmnet', technician: 'technitian', because: 'becuase',
};

/** Owner replies: opening, body by band, per-aspect apology, call to action, sign-off. */
export const RESPONSES = {
  greetings: ['Hi {name},', 'Hello {name},', '{name},', 'Dear {name},', 'Thank you, {name}!', 'Hi {name}!'],
  thanks: ['thank you so much for taking the time to write this.', 'we really appreciate the kind words.', 'thanks for choosing {co}!',
    'it was a pleasure helping you.', 'we are thrilled the {svc} is working again.', 'reviews like yours make our day.'],
  techPraise: ['We will make sure {techFirst} sees this.', '{techFirst} will be glad to hear it.', 'We have passed your note on to {techFirst}.',
    '{techFirst} is one of our best and we are lucky to have {him}.'],
  mixedOpen: ['thank you for the honest feedback.', 'we appreciate you telling us how it went.', 'thanks for giving us a fair review.'],
  negativeOpen: ['we are sorry to read this.', 'I am sorry your experience fell short.', 'this is not the service we want anyone to get.',
    'thank you for letting us know, and I apologize.'],
  apologies: {
    punctuality: 'Arriving late without a call is not our standard, and we have talked with the team about it.',
    responsiveness: 'You should never have had to chase us for a call back.',
    price: 'We would like to go over the invoice with you line by line.',
    quality: 'A repair should last, and we will send someone to recheck it at no charge.',
    professionalism: 'That is not how we expect anyone on our team to treat a customer.',
    communication: 'We should have explained the work and the charges before starting.',
    cleanliness: 'Leaving a mess in your home is unacceptable.',
    expertise: 'We are having a senior technician review the diagnosis.',
  } satisfies Record<Aspect, string>,
  callToAction: ['Please call us at {phone} and ask for {owner} so we can make this right.', 'Please reach out to {owner} directly at {phone}.',
    'I would like to talk with you personally: {phone}.'],
  mixedClose: ['We hope to earn that fifth star next time.', 'We are working on it and hope to see you again.'],
  signOffs: ['— {owner}, owner', '— The {co} team', '', '', '— {ownerFirst}'],
} as const;
