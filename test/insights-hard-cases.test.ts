// Hard cases the aspect model fixed: sentences of the frozen test set (eval/frozen-test.jsonl, never trained on)
// that the analyzer before it labelled wrong, each with the labels the guidelines give it (eval/GUIDELINES.md). The
// whole sentence must come out exactly: every aspect found, none extra, each with its polarity.
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../src/insights/analysis/analyzer.js';

const analyzer = new Analyzer(null);

function labelsOf(text: string): Record<string, string> {
  const scores = new Map<string, number>();
  for (const j of analyzer.analyze({ id: 'hard', text }).aspects) scores.set(j.aspect, (scores.get(j.aspect) ?? 0) + j.score);
  return Object.fromEntries([...scores].map(([aspect, score]) => [aspect, score > 0 ? 'positive' : 'negative']));
}

const cases: Record<string, [string, Record<string, string>][]> = {
  'implicit mentions: the act says the aspect': [
    ["Had three electricians look at it and he was the only one who traced the problem to a shared neutral.", {"expertise": "positive"}],
    ["Plumber was supposed to finish the repipe Friday and was still here the following Wednesday.", {"punctuality": "negative"}],
    ["Wore a mask the whole time because my son is immunocompromised, without us even asking.", {"professionalism": "positive"}],
    ["Listened to the pipes for thirty seconds and said \"water hammer, your arrestor's shot,\" and he was right.", {"expertise": "positive"}],
    ["Every time the heat kicks on now there's a burning smell that wasn't there before.", {"quality": "negative"}],
    ["Our white carpet now has a grey path from the attic ladder to the front door.", {"cleanliness": "negative"}],
    ["Found a pile of sheet-metal screws and a soda can in the attic next to the new air handler.", {"cleanliness": "negative"}],
    ["Called at 7am with no heat and Marcus was in our basement by 9.", {"responsiveness": "positive"}],
    ["Emailed on a Sunday and had a reply offering three slots before breakfast Monday.", {"responsiveness": "positive"}],
    ["Mate, they had a tech out on Boxing Day.", {"responsiveness": "positive"}],
    ["Two years on and not a single drip from that joint.", {"quality": "positive"}],
    ["Water pressure upstairs is finally decent.", {"quality": "positive"}],
    ["He apologised twice for the noise, which was sweet.", {"professionalism": "positive"}],
    ["Quiet as anything now, you can barely hear the air handler kick on.", {"quality": "positive"}],
  ],
  'misspellings and dialect': [
    ["Y'all picked up on a Sunday night and had somebody here inside the hour, bless you.", {"responsiveness": "positive"}],
    ["The came out same day and didnt even charge a after hours fee.", {"responsiveness": "positive", "price": "positive"}],
    ["Very curtious and respecful, wiped his feet evry time he came in.", {"professionalism": "positive", "cleanliness": "positive"}],
    ["called 5 times no one pick up the phone, very dissapointed", {"responsiveness": "negative"}],
    ["waited 2 weeks for an estemate, never got one", {"responsiveness": "negative"}],
    ["cleaned up realy nice after, even took the old ducts away", {"cleanliness": "positive"}],
    ["sawdust and wire bits evrywhere, had to clean it all myself", {"cleanliness": "negative"}],
    ["Your man was dead sound, chatted away with us and was very mannerly.", {"professionalism": "positive"}],
    ["Rang them Tuesday arvo, bloke was here Wednesday at 8 sharp like they said.", {"punctuality": "positive", "responsiveness": "positive"}],
    ["Knew his onions, that one.", {"expertise": "positive"}],
    ["He new what he was doing and the furnace has ran great ever sence", {"expertise": "positive", "quality": "positive"}],
    ["came out on a sunday wich no one else would do", {"responsiveness": "positive"}],
    ["found a loose neutral in the pannel no one else could find", {"expertise": "positive"}],
    ["tech was their rite at 8 like they promised", {"punctuality": "positive"}],
    ["Cracking sparky, had the fault traced in five minutes flat.", {"expertise": "positive"}],
  ],
  'sarcasm: praise that means blame': [
    ["I just adore guessing games, so not being told what they replaced was a real treat.", {"communication": "negative"}],
    ["Brilliant value, if you enjoy paying $95 for someone to change a furnace filter.", {"price": "negative"}],
    ["Really classy, telling my wife she \"wouldn't understand\" the breaker box.", {"professionalism": "negative"}],
    ["Thanks for the souvenir trail of insulation from the attic hatch to the front door.", {"cleanliness": "negative"}],
    ["Nice of them to leave the old toilet on my front lawn as a lawn ornament.", {"cleanliness": "negative"}],
    ["I'm sure they'll call me back any year now.", {"responsiveness": "negative"}],
    ["Left a message Friday about a gushing pipe, they got back to me Wednesday, so that was fun.", {"responsiveness": "negative"}],
  ],
  'negation': [
    ["He walked me through every option and never once pushed the fancier one.", {"communication": "positive", "professionalism": "positive"}],
    ["Didn't leave so much as a screw behind after swapping the ductwork.", {"cleanliness": "positive"}],
    ["No one mentioned that the water would be shut off until the inspector came the next day.", {"communication": "negative"}],
    ["Didn't bother to tell us the power would be off for six hours.", {"communication": "negative"}],
    ["Haven't had a single breaker trip since they split the kitchen circuits.", {"quality": "positive"}],
    ["Never once made me feel rushed, and answered every question about the new thermostat.", {"communication": "positive", "professionalism": "positive"}],
    ["Couldn't tell a GFCI from a regular outlet.", {"expertise": "negative"}],
    ["Not a single word about what was actually wrong with the compressor.", {"communication": "negative"}],
    ["Not one word about the cracked flange until I found it myself a week later.", {"communication": "negative"}],
  ],
  'contrast and several aspects at once': [
    ["Took two extra days to finish, but the new shower valve doesn't drip at all.", {"punctuality": "negative", "quality": "positive"}],
    ["Tidied up after themselves nicely, but two of the new dimmers buzz constantly.", {"cleanliness": "positive", "quality": "negative"}],
    ["Unlike the first company, who needed two weeks to come out, these folks came the next morning and found the blocked condensate line immediately.", {"responsiveness": "positive", "expertise": "positive"}],
    ["The new condenser works beautifully, though the bill made my eyes water.", {"price": "negative", "quality": "positive"}],
    ["They got us on the schedule same day, though the plumber ran about ninety minutes behind.", {"punctuality": "negative", "responsiveness": "positive"}],
    ["He got here early, I'll give him that, but he was short with me the entire visit.", {"professionalism": "negative", "punctuality": "positive"}],
    ["Slow to get back to us, but once he was here he found the hidden leak behind the tub in minutes.", {"expertise": "positive", "responsiveness": "negative"}],
    ["He diagnosed the slab leak quickly, I'll give him that, but the reroute he ran is already sweating and dripping.", {"expertise": "positive", "quality": "negative"}],
    ["They came out within hours, but the tech seemed baffled by a pretty basic heat pump.", {"expertise": "negative", "responsiveness": "positive"}],
    ["Knew his way around a panel, just didn't say more than three words about what he found.", {"communication": "negative", "expertise": "positive"}],
    ["Window was 8 to 10, he rolled in at 12:40 and nobody ever rang to say so.", {"communication": "negative", "punctuality": "negative"}],
    ["Texted at 8:40 to say he was ten minutes out and was knocking at 8:50.", {"communication": "positive", "punctuality": "positive"}],
  ],
  'no aspect at all': [
    ["Does anyone know if they do septic work too?", {}],
    ["Our kitchen drain has always been slow because of the old cast iron.", {}],
    ["How this company is still in business, I have no idea.", {}],
  ],
  'thresholds chosen for reviews\' mix of aspects: an over-represented aspect no longer found on weak evidence': [
    ["The office manager called me back within twenty minutes of my complaint and had someone out again that afternoon.", {"responsiveness": "positive"}],
    // Lost again when the aspect regressions' L2 pull was lightened (eval/README.md): "Drew me a little diagram of how
    // the three-way switches were wired so I'd understand." is found about expertise too, 0.394 against its threshold
    // 0.325, on "# way" and character grams of "understand". The change was kept on the nested validation measure.
    ["The house has a mix of radiators and a newer forced-air system upstairs.", {}],
    ["The power company said the problem was on our side of the meter.", {}],
    ["He didn't try to sell us a new heater even though he could have, just swapped the thermocouple for sixty bucks, which was a relief.", {"price": "positive", "professionalism": "positive"}],
  ],
  'quality labels corrected in training, damage read as the result: quality no longer found in what only tells of the work': [
    ["Such a gentleman, he even held the door for my mum when she came back with the shopping.", {"professionalism": "positive"}],
    ["We still don't know why the first compressor failed, nobody would say.", {"communication": "negative"}],
    ["Knew exactly why the lights dimmed when the AC kicked on, but charged like a surgeon for the privilege.", {"expertise": "positive", "price": "negative"}],
  ],
  'word order and word meaning: the word-order network beside the regression': [
    ["Called Sunday at noon, fixed by three.", {"responsiveness": "positive"}],
    ["tech never showd up and nobody calld to tell us", {"punctuality": "negative", "communication": "negative"}],
    ["Apparently \"we'll get you on the schedule\" means sometime before the next ice age.", {"responsiveness": "negative"}],
    ["Took his time with my disabled son and explained everything at his pace.", {"professionalism": "positive", "communication": "positive"}],
    ["First summer in ten years the upstairs has actually been comfortable.", {"quality": "positive"}],
    ["Cheaper than the plumber my landlord uses and a far neater job.", {"price": "positive", "quality": "positive"}],
    ["Right mardy bloke, huffed and puffed the whole time.", {"professionalism": "negative"}],
    ["Two other electricians wanted a week's lead time; these guys came the same day and charged less than both quotes.", {"responsiveness": "positive", "price": "positive"}],
    ["The previous HVAC guy had installed the return vent in the wrong room entirely.", {}],
  ],
};

describe('hard cases the aspect model fixed', () => {
  for (const [kind, list] of Object.entries(cases)) {
    describe(kind, () => {
      it.each(list)('%s → %o', (text, labels) => {
        expect(labelsOf(text)).toEqual(labels);
      });
    });
  }
});
