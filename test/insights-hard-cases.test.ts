// Hard cases for the analyzer: sentences written for this test, in none of the labelled sets (training/eval/), each
// with the labels the guidelines give it (training/eval/GUIDELINES.md). The whole sentence must come out exactly:
// every aspect found, none extra, each with its polarity. The frozen test set is scored by `npm run eval` only, so
// none of its sentences is pinned here.
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../src/insights/analysis/analyzer.js';

const analyzer = new Analyzer(null);

function labelsOf(text: string): Record<string, string> {
  const scores = new Map<string, number>();
  for (const j of analyzer.analyze({ id: 'hard', text }).aspects)
    scores.set(j.aspect, (scores.get(j.aspect) ?? 0) + j.score);
  return Object.fromEntries([...scores].map(([aspect, score]) => [aspect, score > 0 ? 'positive' : 'negative']));
}

const cases: Record<string, [string, Record<string, string>][]> = {
  'implicit mentions: the act says the aspect': [
    ['She swept the attic insulation off the stairs before she left.', { cleanliness: 'positive' }],
    ['The new thermostat stopped working a week after they fitted it.', { quality: 'negative' }],
    ['They texted when the engineer was twenty minutes away.', { communication: 'positive' }],
    ['We were quoted $300 and the bill came to $750.', { price: 'negative' }],
    ['Our kitchen sink has drained perfectly ever since.', { quality: 'positive' }],
    ['I rang at lunchtime and they had someone here the same afternoon.', { responsiveness: 'positive' }],
    ['The leak came back two days later.', { quality: 'negative' }],
    [
      'Two plumbers before him gave up, and he found the cracked drain line under the slab in an hour.',
      { expertise: 'positive' },
    ],
    ['He put down drop cloths in every room before he touched a thing.', { cleanliness: 'positive' }],
    ['There is a rattling noise from the vent that started the day after the install.', { quality: 'negative' }],
    ['Left muddy boot prints all over our hallway rug.', { cleanliness: 'negative' }],
    ['Phoned at 6am with a burst pipe and a plumber was at the door by 8.', { responsiveness: 'positive' }],
    ["Three winters now and the boiler hasn't missed a beat.", { quality: 'positive' }],
    ['The hot water finally lasts through two showers.', { quality: 'positive' }],
  ],
  'misspellings and dialect': [
    ['verry profesional and curtious from start to finsh', { professionalism: 'positive' }],
    ['the tech explaned evrything in plain english', { communication: 'positive' }],
    ['way to expensive for a 10 minute job', { price: 'negative' }],
    ['cleaned up real nice after, you couldnt tell they was here', { cleanliness: 'positive' }],
    ['reasonible price and no suprises on the bill', { price: 'positive' }],
    ['the aircon works grate now', { quality: 'positive' }],
    ['they ansered on a holiday and sent someone out in under a hour', { responsiveness: 'positive' }],
    ['left plaster dust evrywhere and never swept up', { cleanliness: 'negative' }],
    ['the guy defintely knew his stuff, had the furnace runing in no time', { expertise: 'positive' }],
    ['plumber was their at 9 on the dot like they sed', { punctuality: 'positive' }],
    [
      'Proper sound fella, very polite and cleaned up after hisself.',
      { professionalism: 'positive', cleanliness: 'positive' },
    ],
    ['Top notch sparky, sorted the tripping fuse box in ten minutes.', { expertise: 'positive' }],
    ['waited three weeks for a qoute and never herd back', { responsiveness: 'negative' }],
  ],
  'sarcasm: praise that means blame': [
    ['Love paying $300 for a ten minute visit, what a bargain.', { price: 'negative' }],
    ['Great to find out what they did from the invoice, since nobody told us anything.', { communication: 'negative' }],
    [
      'Thanks for leaving the old water heater in my driveway, it really completes the look.',
      { cleanliness: 'negative' },
    ],
    ["I'm sure the callback they promised will come any decade now.", { responsiveness: 'negative' }],
    ['Reported a leak on Monday and heard back the following Monday, very speedy.', { responsiveness: 'negative' }],
  ],
  negation: [
    ["Didn't leave a single wire clipping behind after rewiring the kitchen.", { cleanliness: 'positive' }],
    ['Nobody told us the gas would be off for the whole day.', { communication: 'negative' }],
    ['Not a single leak since they replaced the valve.', { quality: 'positive' }],
    ["Couldn't tell a breaker from a fuse.", { expertise: 'negative' }],
    ['Not one word about what was wrong with the boiler.', { communication: 'negative' }],
  ],
  'contrast and several aspects at once': [
    [
      'Friendly enough, but the boiler broke again within a month.',
      { professionalism: 'positive', quality: 'negative' },
    ],
    ['Arrived late, although he did call ahead to warn us.', { punctuality: 'negative', communication: 'positive' }],
    ['Great work, terrible communication.', { quality: 'positive', communication: 'negative' }],
    ['Polite lad, but he left sawdust all over the landing.', { professionalism: 'positive', cleanliness: 'negative' }],
    ['Expensive, yes, but the new unit is whisper quiet.', { price: 'negative', quality: 'positive' }],
    [
      'Ran three days over schedule, but the new faucet works perfectly.',
      { punctuality: 'negative', quality: 'positive' },
    ],
    [
      'Cleaned up nicely after themselves, but the new outlets keep sparking.',
      { cleanliness: 'positive', quality: 'negative' },
    ],
    ['The new furnace runs great, though the invoice was painful.', { price: 'negative', quality: 'positive' }],
    [
      'He showed up early, but was rude to my husband the whole visit.',
      { professionalism: 'negative', punctuality: 'positive' },
    ],
    [
      'Took ages to return my calls, but once here he found the leak in minutes.',
      { expertise: 'positive', responsiveness: 'negative' },
    ],
    [
      'Came out the same day, but the tech had no idea how to fix a simple thermostat.',
      { expertise: 'negative', responsiveness: 'positive' },
    ],
    [
      'Arrival window was 1 to 3, he showed at 5 and nobody called to say so.',
      { communication: 'negative', punctuality: 'negative' },
    ],
    [
      'Called to say he was running five minutes early and was here at 9 sharp.',
      { communication: 'positive', punctuality: 'positive' },
    ],
    [
      'Knew his stuff, but barely said a word about what he had found.',
      { communication: 'negative', expertise: 'positive' },
    ],
  ],
  'no aspect at all': [
    ['Do they also install water softeners?', {}],
    ['We have a heat pump downstairs and an old oil furnace in the garage.', {}],
    ["I honestly can't believe this company still has customers.", {}],
    ['The city said the blockage was in our part of the sewer line.', {}],
  ],
  'an aspect not found on weak evidence': [
    [
      'The dispatcher rang me back within ten minutes and had a tech out that same afternoon.',
      { responsiveness: 'positive' },
    ],
  ],
  'quality not found in what only tells of the work': [
    ['Such a kind man, he even carried my groceries in from the car.', { professionalism: 'positive' }],
    ['Still no one has told us why the first pump failed.', { communication: 'negative' }],
    [
      'Knew exactly why the breaker kept tripping, but charged a fortune for it.',
      { expertise: 'positive', price: 'negative' },
    ],
  ],
  'negation: denied words and denied complaints': [
    ['Not once did he explain what he was doing.', { communication: 'negative' }],
    ['No mess, no fuss, and no hidden fees.', { cleanliness: 'positive', price: 'positive' }],
    ["I can't fault the workmanship.", { quality: 'positive' }],
    ['They never once kept us in the loop.', { communication: 'negative' }],
    ["Wasn't cheap, but the job was done properly.", { price: 'negative', quality: 'positive' }],
    ['Could not have asked for a more courteous technician.', { professionalism: 'positive' }],
    ['Nothing has leaked since.', { quality: 'positive' }],
  ],
  'word order and word meaning': [
    ['Rude on the phone and rude in person.', { professionalism: 'negative' }],
    ['He knew that old furnace inside out.', { expertise: 'positive' }],
    ['Kept pushing a full replacement we did not need.', { professionalism: 'negative' }],
    ['We called three companies and they were the only one to answer.', { responsiveness: 'positive' }],
    ['The panel upgrade passed inspection first time.', { quality: 'positive' }],
    ['Went over every option with us before starting.', { communication: 'positive' }],
    ['Diagnosed the fault in minutes.', { expertise: 'positive' }],
    [
      'Took his time with my elderly father and explained everything slowly.',
      { professionalism: 'positive', communication: 'positive' },
    ],
    ['First winter in years the bedrooms have actually been warm.', { quality: 'positive' }],
    ['The last plumber had fitted the pipe to the wrong tap entirely.', {}],
    ['Grumpy old bloke, sighed and moaned the whole time.', { professionalism: 'negative' }],
  ],
};

describe('hard cases', () => {
  for (const [kind, list] of Object.entries(cases)) {
    describe(kind, () => {
      it.each(list)('%s → %o', (text, labels) => {
        expect(labelsOf(text)).toEqual(labels);
      });
    });
  }
});
