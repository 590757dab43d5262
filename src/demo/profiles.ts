// Static data the demo business is drawn from: metros, services with their everyday words, technicians, names.

export type Category = 'cooling' | 'plumbing' | 'electrical';

export interface Metro {
  city: string;
  region: string;
  /** The metro's IANA time zone: the business's, so review dates are its local dates. */
  timeZone: string;
  areaCode: string;
  streets: readonly string[];
  postalCodes: readonly string[];
  /** Towns and neighbourhoods; the first entries are the busiest. */
  areas: readonly string[];
  namePrefixes: readonly string[];
  /** Summer afternoon highs (°F) customers complain about. */
  heat: readonly [number, number];
}

export const METROS: readonly Metro[] = [
  {
    city: 'Phoenix', region: 'AZ', timeZone: 'America/Phoenix', areaCode: '602',
    streets: ['E Thomas Rd', 'W Indian School Rd', 'N 7th St', 'E Camelback Rd', 'W Bethany Home Rd'],
    postalCodes: ['85008', '85013', '85014', '85016', '85018'],
    areas: ['Phoenix', 'Scottsdale', 'Tempe', 'Mesa', 'Chandler', 'Gilbert', 'Glendale', 'Peoria', 'Ahwatukee',
      'Surprise', 'Goodyear', 'Avondale', 'Paradise Valley', 'Cave Creek', 'Fountain Hills', 'Queen Creek', 'Litchfield Park'],
    namePrefixes: ['Desert Breeze', 'Saguaro', 'Copper State', 'Sonoran'],
    heat: [106, 118],
  },
  {
    city: 'Sacramento', region: 'CA', timeZone: 'America/Los_Angeles', areaCode: '916',
    streets: ['Folsom Blvd', 'J St', 'Fair Oaks Blvd', 'Stockton Blvd', 'Freeport Blvd'],
    postalCodes: ['95816', '95819', '95822', '95825', '95831'],
    areas: ['Sacramento', 'Elk Grove', 'Roseville', 'Folsom', 'Rancho Cordova', 'Citrus Heights', 'Natomas', 'Carmichael',
      'Fair Oaks', 'West Sacramento', 'Rocklin', 'Land Park', 'Orangevale', 'El Dorado Hills', 'Davis', 'Antelope'],
    namePrefixes: ['River City', 'Delta Breeze', 'Capitol', 'Valley Oak'],
    heat: [100, 110],
  },
  {
    city: 'Austin', region: 'TX', timeZone: 'America/Chicago', areaCode: '512',
    streets: ['Burnet Rd', 'S Lamar Blvd', 'E Riverside Dr', 'N Lamar Blvd', 'Manchaca Rd'],
    postalCodes: ['78704', '78745', '78751', '78757', '78758'],
    areas: ['Austin', 'Round Rock', 'Cedar Park', 'Pflugerville', 'Georgetown', 'Leander', 'Kyle', 'Buda', 'Hyde Park',
      'Mueller', 'Lakeway', 'Bee Cave', 'Hutto', 'Manor', 'Dripping Springs', 'Travis Heights'],
    namePrefixes: ['Lone Star', 'Hill Country', 'Live Oak', 'Bluebonnet'],
    heat: [100, 109],
  },
];

export const NAME_SUFFIXES = ['Home Services', 'Air, Plumbing & Electric', 'Cooling, Plumbing & Electrical', 'Home Comfort Pros'] as const;

export interface ServiceProfile {
  id: string;
  name: string;
  category: Category;
  /** Core services are in every generated catalogue; the rest are drawn by the seed. */
  core: boolean;
  weight: number;
  /** Month (0 = January) when demand peaks, and how strongly (0 flat … 1 strong). */
  peakMonth: number;
  seasonality: number;
  /** Installs take days and have no fault to find; repairs and tune-ups do. */
  kind: 'repair' | 'install';
  /** How customers call it, used as "the {svc}"; singular, since fragments say "the {svc} works". */
  nouns: readonly string[];
  problems: readonly string[];
  /** Problems that only make sense in the hot months. */
  hotProblems?: readonly string[];
  /** What the technician found, and what they did about it (past tense). */
  fixes: readonly (readonly [finding: string, work: string])[];
  price: readonly [number, number];
}

export const SERVICES: readonly ServiceProfile[] = [
  {
    id: 'ac-repair', name: 'AC Repair', category: 'cooling', core: true, kind: 'repair', weight: 10, peakMonth: 6, seasonality: 0.85,
    nouns: ['AC', 'A/C', 'air conditioner', 'AC unit', 'air conditioning'],
    problems: ['{my} AC was blowing warm air', 'the upstairs unit stopped cooling', 'the air conditioner started making a loud buzzing noise',
      'the AC kept shutting off every few minutes', 'the outdoor unit was running but nothing cold was coming out of the vents'],
    hotProblems: ['the AC quit in the middle of a heat wave', 'it was {temp} outside and the AC died', 'the house was 88 degrees inside and climbing',
      '{my} AC gave out on the hottest weekend of the year'],
    fixes: [
      ['a bad capacitor', 'put in a new capacitor'],
      ['a burned-out contactor', 'swapped out the contactor'],
      ['a refrigerant leak at the coil', 'sealed the leak and recharged the system'],
      ['a clogged condensate line', 'cleared the condensate line'],
      ['a seized condenser fan motor', 'replaced the fan motor'],
      ['a tripped float switch', 'cleared the drain pan and reset the float switch'],
    ],
    price: [150, 950],
  },
  {
    id: 'ac-install', name: 'AC Installation & Replacement', category: 'cooling', core: true, kind: 'install', weight: 4, peakMonth: 5, seasonality: 0.6,
    nouns: ['new AC', 'new air conditioner', 'AC system', 'new unit'],
    problems: ['{my} 20-year-old AC finally died', 'the old unit needed a repair that cost more than it was worth',
      '{i} wanted to replace an ancient R-22 system'],
    hotProblems: ['the old AC gave up for good in the middle of summer'],
    fixes: [
      ['a failed compressor', 'installed a new 16 SEER2 system'],
      ['an old unit that was way undersized for the house', 'put in a properly sized 4-ton system and hauled the old one away'],
      ['a compressor that was beyond saving', 'swapped the old condenser and coil in one day'],
    ],
    price: [6500, 14000],
  },
  {
    id: 'ac-maintenance', name: 'AC Tune-Up & Maintenance', category: 'cooling', core: true, kind: 'repair', weight: 5, peakMonth: 4, seasonality: 0.6,
    nouns: ['AC', 'AC tune-up', 'air conditioner', 'system'],
    problems: ['it was time for the spring tune-up on the AC', '{i} signed up for their maintenance plan and this was the first visit',
      '{i} wanted the AC checked before the next hot spell'],
    fixes: [
      ['a dirty condenser coil', 'cleaned the coils and checked everything'],
      ['a weak capacitor that was about to go', 'replaced the capacitor before it failed'],
      ['low refrigerant', 'topped off the refrigerant and checked for leaks'],
      ['a half-clogged drain line', 'flushed the drain line and changed the filter'],
    ],
    price: [89, 249],
  },
  {
    id: 'heat-pump-repair', name: 'Heat Pump Repair', category: 'cooling', core: false, kind: 'repair', weight: 3, peakMonth: 7, seasonality: 0.3,
    nouns: ['heat pump', 'heat pump system'],
    problems: ['the heat pump was stuck in defrost mode', '{my} heat pump stopped switching over', 'the heat pump was blowing lukewarm air'],
    fixes: [
      ['a bad reversing valve', 'swapped the reversing valve'],
      ['a failed defrost board', 'replaced the defrost control board'],
      ['a low refrigerant charge', 'fixed the leak and recharged the system'],
    ],
    price: [200, 1800],
  },
  {
    id: 'mini-split-install', name: 'Ductless Mini-Split Installation', category: 'cooling', core: false, kind: 'install', weight: 2, peakMonth: 4, seasonality: 0.5,
    nouns: ['mini-split', 'ductless unit', 'mini split'],
    problems: ['the garage office was unbearable in the afternoons', '{i} converted the garage and needed cooling out there',
      'the back bedroom never got cool'],
    fixes: [
      ['no good way to run ductwork to that room', 'installed a mini-split in the bonus room'],
      ['a wall that could take the indoor head', 'mounted the head and ran the line set neatly along the wall'],
    ],
    price: [3500, 7500],
  },
  {
    id: 'duct-sealing', name: 'Duct Cleaning & Sealing', category: 'cooling', core: false, kind: 'repair', weight: 2, peakMonth: 3, seasonality: 0.3,
    nouns: ['ductwork', 'duct system'],
    problems: ['the back rooms never got enough air', 'there was dust everywhere no matter how often {i} cleaned',
      '{my} electric bill was crazy high'],
    fixes: [
      ['a disconnected duct in the attic', 'reconnected and sealed the duct'],
      ['leaky duct joints', 'sealed every joint they could reach'],
      ['years of dust in the return', 'cleaned and sanitized all the ducts'],
    ],
    price: [300, 1400],
  },
  {
    id: 'thermostat-install', name: 'Smart Thermostat Installation', category: 'cooling', core: false, kind: 'install', weight: 2, peakMonth: 5, seasonality: 0.3,
    nouns: ['thermostat', 'smart thermostat', 'new thermostat'],
    problems: ['the old thermostat kept losing its settings', '{i} bought a smart thermostat and could not get it wired',
      'the thermostat screen went blank'],
    fixes: [
      ['a missing C-wire', 'ran a new C-wire and set up the thermostat'],
      ['a loose wire at the air handler', 'fixed the wiring and programmed the new thermostat'],
    ],
    price: [120, 450],
  },
  {
    id: 'water-heater-repair', name: 'Water Heater Repair', category: 'plumbing', core: true, kind: 'repair', weight: 5, peakMonth: 0, seasonality: 0.45,
    nouns: ['water heater', 'hot water heater', 'hot water'],
    problems: ['{i} woke up to no hot water', 'the water heater was making a popping noise', 'the pilot light kept going out',
      'the showers were running cold after five minutes'],
    fixes: [
      ['a bad thermocouple', 'put in a new thermocouple'],
      ['a burned-out heating element', 'swapped out the bad element'],
      ['a failed gas valve', 'replaced the gas valve'],
      ['a ton of sediment in the tank', 'flushed the tank and replaced the anode rod'],
    ],
    price: [150, 700],
  },
  {
    id: 'water-heater-install', name: 'Water Heater Installation', category: 'plumbing', core: true, kind: 'install', weight: 4, peakMonth: 0, seasonality: 0.5,
    nouns: ['water heater', 'new water heater', 'hot water heater'],
    problems: ['{my} water heater started leaking all over the garage', 'the old tank was 15 years old and rusting',
      'there was water pooling under the water heater'],
    fixes: [
      ['a tank rusted through at the bottom', 'installed a new 50-gallon water heater'],
      ['a cracked tank', 'hauled the old tank away and installed the new one the same day'],
      ['venting that was not up to code', 'put in a new water heater and brought the venting up to code'],
    ],
    price: [1600, 3800],
  },
  {
    id: 'tankless-water-heater-install', name: 'Tankless Water Heater Installation', category: 'plumbing', core: false, kind: 'install', weight: 2, peakMonth: 0, seasonality: 0.35,
    nouns: ['tankless water heater', 'tankless', 'tankless heater'],
    problems: ['{i} wanted to switch to tankless', '{my} family kept running out of hot water'],
    fixes: [
      ['a gas line too small for the tankless unit', 'installed the tankless unit and upsized the gas line'],
      ['a good spot on the outside wall', 'mounted the tankless unit and vented it through the wall'],
    ],
    price: [3500, 6500],
  },
  {
    id: 'drain-cleaning', name: 'Drain Cleaning', category: 'plumbing', core: true, kind: 'repair', weight: 6, peakMonth: 10, seasonality: 0.25,
    nouns: ['drain', 'kitchen drain', 'clogged drain', 'main line'],
    problems: ['the kitchen sink backed up', 'both bathrooms were draining super slowly', 'the main line backed up into the tub',
      'the shower drain was completely clogged'],
    fixes: [
      ['a grease clog', 'snaked the line'],
      ['tree roots in the main line', 'hydro-jetted the main line'],
      ['a wad of wipes halfway down the line', 'cleared the clog and ran a camera down the line'],
    ],
    price: [120, 650],
  },
  {
    id: 'leak-repair', name: 'Leak Detection & Repair', category: 'plumbing', core: true, kind: 'repair', weight: 5, peakMonth: 0, seasonality: 0.25,
    nouns: ['leak', 'pipe', 'leaking pipe', 'slab leak'],
    problems: ['{i} heard water running when nothing was on', 'there was a wet spot on the ceiling under the bathroom',
      'the water bill doubled out of nowhere', 'a pipe burst under the kitchen sink'],
    fixes: [
      ['a pinhole leak in a copper line', 'replaced the section of pipe'],
      ['a slab leak under the hallway', 'rerouted the line through the attic'],
      ['a cracked fitting behind the wall', 'replaced the fitting with minimal drywall cutting'],
    ],
    price: [250, 3200],
  },
  {
    id: 'sewer-line-repair', name: 'Sewer Line Repair', category: 'plumbing', core: false, kind: 'repair', weight: 2, peakMonth: 1, seasonality: 0.2,
    nouns: ['sewer line', 'main sewer line', 'sewer'],
    problems: ['sewage was coming up in the downstairs shower', 'the yard smelled like sewage'],
    fixes: [
      ['a collapsed section of the sewer line', 'replaced the broken section'],
      ['roots crushing the old clay pipe', 'did a trenchless repair on the sewer line'],
    ],
    price: [2500, 9000],
  },
  {
    id: 'toilet-repair', name: 'Toilet Repair & Installation', category: 'plumbing', core: false, kind: 'repair', weight: 3, peakMonth: 11, seasonality: 0.1,
    nouns: ['toilet'],
    problems: ['the toilet kept running all night', 'the toilet was rocking and leaking at the base'],
    fixes: [
      ['a worn flapper', 'replaced the flapper and fill valve'],
      ['a broken wax seal', 'pulled the toilet and reset it on a new wax ring'],
      ['a cracked flange', 'replaced the flange and reset the toilet'],
    ],
    price: [150, 900],
  },
  {
    id: 'garbage-disposal-install', name: 'Garbage Disposal Installation', category: 'plumbing', core: false, kind: 'install', weight: 2, peakMonth: 10, seasonality: 0.2,
    nouns: ['garbage disposal', 'disposal'],
    problems: ['the garbage disposal just hummed and would not spin', 'the disposal was leaking under the sink'],
    fixes: [
      ['a seized motor', 'installed a new disposal'],
      ['a cracked housing', 'swapped the old disposal for a new one'],
    ],
    price: [250, 600],
  },
  {
    id: 'repiping', name: 'Whole-Home Repiping', category: 'plumbing', core: false, kind: 'install', weight: 1, peakMonth: 0, seasonality: 0.1,
    nouns: ['plumbing', 'new plumbing'],
    problems: ['{i} had leak after leak in the old galvanized pipes', 'the water pressure was terrible everywhere'],
    fixes: [
      ['corroded galvanized pipes throughout the house', 'repiped the whole house with PEX in two days'],
    ],
    price: [6000, 15000],
  },
  {
    id: 'panel-upgrade', name: 'Electrical Panel Upgrade', category: 'electrical', core: true, kind: 'install', weight: 3, peakMonth: 2, seasonality: 0.1,
    nouns: ['breaker panel', 'electrical panel', 'panel', 'breaker box'],
    problems: ['{my} home inspector flagged the old breaker panel as a fire hazard', '{i} needed more capacity for an EV charger and a new AC',
      'breakers kept tripping whenever the AC and the dryer ran at the same time'],
    fixes: [
      ['an old Federal Pacific panel', 'swapped the old panel for a new 200-amp one'],
      ['an overloaded 100-amp panel', 'upgraded the panel and pulled the permit'],
      ['a panel with no room left', 'replaced the panel and coordinated the inspection with the city'],
    ],
    price: [2200, 4800],
  },
  {
    id: 'electrical-repair', name: 'Electrical Repair', category: 'electrical', core: true, kind: 'repair', weight: 5, peakMonth: 6, seasonality: 0.1,
    nouns: ['wiring', 'outlet', 'breaker', 'kitchen outlet'],
    problems: ['half the outlets in the kitchen stopped working', 'the lights kept flickering', 'a breaker kept tripping',
      'an outlet was warm to the touch and smelled like burning plastic'],
    fixes: [
      ['a loose neutral', 'tightened and repaired the connections'],
      ['a failed GFCI upstream', 'replaced the GFCI and reset the circuit'],
      ['a scorched wire in a junction box', 'replaced the damaged wiring'],
      ['a bad breaker', 'replaced the breaker'],
    ],
    price: [150, 900],
  },
  {
    id: 'ev-charger-install', name: 'EV Charger Installation', category: 'electrical', core: true, kind: 'install', weight: 3, peakMonth: 5, seasonality: 0.15,
    nouns: ['EV charger', 'car charger', 'Level 2 charger', 'charger'],
    problems: ['{i} just bought an EV and needed a charger in the garage', '{i} wanted a Level 2 charger installed before the new car arrived'],
    fixes: [
      ['plenty of room in the panel for a 50-amp circuit', 'installed a 50-amp circuit and mounted the charger'],
      ['a panel that needed a load calculation first', 'ran a new circuit to the garage for the EV charger'],
    ],
    price: [900, 2400],
  },
  {
    id: 'lighting-install', name: 'Lighting & Ceiling Fan Installation', category: 'electrical', core: false, kind: 'install', weight: 3, peakMonth: 4, seasonality: 0.3,
    nouns: ['ceiling fan', 'lighting', 'recessed lighting'],
    problems: ['{i} wanted ceiling fans in three bedrooms', '{i} wanted ceiling fans and brighter lighting in the living room'],
    fixes: [
      ['no fan-rated box in the ceiling', 'installed the fans and added fan-rated boxes'],
      ['an easy path through the attic', 'put in the fans and six recessed lights'],
    ],
    price: [200, 1500],
  },
  {
    id: 'surge-protection', name: 'Whole-Home Surge Protection', category: 'electrical', core: false, kind: 'install', weight: 1, peakMonth: 7, seasonality: 0.3,
    nouns: ['surge protector', 'whole-house surge protector'],
    problems: ['a storm fried {my} TV and the garage door opener', '{i} wanted surge protection after the last big storm'],
    fixes: [
      ['no surge protection at all', 'installed a whole-house surge protector at the panel'],
    ],
    price: [350, 700],
  },
  {
    id: 'generator-install', name: 'Standby Generator Installation', category: 'electrical', core: false, kind: 'install', weight: 1, peakMonth: 7, seasonality: 0.3,
    nouns: ['generator', 'standby generator', 'backup generator'],
    problems: ['{i} got tired of losing power every storm season', '{i} work from home and needed backup power'],
    fixes: [
      ['room for a transfer switch next to the panel', 'installed a standby generator and transfer switch'],
    ],
    price: [6000, 13000],
  },
];

export interface TechnicianProfile {
  name: string;
  aliases?: readonly string[];
  specialty: Category;
  pronoun: 'he' | 'she';
}

/** The first three are always hired: the accented name and the nicknamed one are what search tests rely on. */
export const TECHNICIANS: readonly TechnicianProfile[] = [
  { name: 'Zoë Martínez', specialty: 'cooling', pronoun: 'she' },
  { name: 'Robert Okafor', aliases: ['Rob', 'Bobby'], specialty: 'plumbing', pronoun: 'he' },
  { name: 'William Chen', aliases: ['Will', 'Bill'], specialty: 'electrical', pronoun: 'he' },
  { name: 'Katherine Nguyen', aliases: ['Kate', 'Katie'], specialty: 'cooling', pronoun: 'she' },
  { name: 'José Hernández', aliases: ['Joe'], specialty: 'plumbing', pronoun: 'he' },
  { name: 'Marcus Bell', specialty: 'cooling', pronoun: 'he' },
  { name: 'Aisha Rahman', specialty: 'electrical', pronoun: 'she' },
  { name: "Daniel O'Brien", aliases: ['Danny', 'Dan'], specialty: 'plumbing', pronoun: 'he' },
  { name: 'Priya Patel', specialty: 'cooling', pronoun: 'she' },
  { name: 'Tomás Silva', aliases: ['Tommy'], specialty: 'electrical', pronoun: 'he' },
  { name: 'Anthony Russo', aliases: ['Tony'], specialty: 'cooling', pronoun: 'he' },
  { name: 'Renée Dubois', specialty: 'plumbing', pronoun: 'she' },
  { name: 'Jonathan Reyes', aliases: ['Jon', 'Johnny'], specialty: 'electrical', pronoun: 'he' },
  { name: 'Michael Kowalski', aliases: ['Mike'], specialty: 'cooling', pronoun: 'he' },
];

export const OWNERS = ['Dana Whitfield', 'Luis Ortega', 'Karen Mills', 'Sam Adeyemi', 'Greg Lindqvist'] as const;

export const CUSTOMER_FIRST_NAMES = [
  'Maria', 'James', 'Linda', 'Michael', 'Jennifer', 'David', 'Patricia', 'Robert', 'Susan', 'John', 'Karen', 'Chris', 'Lisa',
  'Brian', 'Nancy', 'Kevin', 'Sandra', 'Jason', 'Ashley', 'Matt', 'Emily', 'Josh', 'Megan', 'Ryan', 'Rachel', 'Eric', 'Laura',
  'Tyler', 'Stephanie', 'Andrew', 'Nicole', 'Justin', 'Heather', 'Brandon', 'Amanda', 'Steve', 'Melissa', 'Greg', 'Kim', 'Tom',
  'Rebecca', 'Jeff', 'Amy', 'Scott', 'Angela', 'Mark', 'Michelle', 'Paul', 'Carol', 'Gary', 'Deborah', 'Ken', 'Sharon', 'Luis',
  'Guadalupe', 'Carlos', 'Alejandra', 'Miguel', 'Rosa', 'Juan', 'Ana', 'Diego', 'Lucía', 'Javier', 'Mónica', 'Wei', 'Mei',
  'Hiroshi', 'Yuki', 'Anh', 'Minh', 'Raj', 'Anita', 'Vikram', 'Deepa', 'Olu', 'Ngozi', 'Kwame', 'Amara', 'Fatima', 'Omar',
  'Yusuf', 'Layla', 'Sean', 'Siobhan', 'Björn', 'Ingrid', 'Pierre', 'Chloé', 'Marco', 'Giulia', 'Dmitri', 'Olga', 'Tariq',
  'Hannah', 'Noah', 'Olivia', 'Liam', 'Emma', 'Ethan', 'Ava', 'Mason', 'Sophia', 'Logan', 'Isabella', 'Lucas', 'Mia', 'Jack',
  'Harper', 'Aiden', 'Ella', 'Caleb', 'Grace', 'Nathan', 'Zoe', 'Dylan', 'Lily', 'Owen', 'Abby', 'Wyatt', 'Brooke', 'Cody',
  'Dee', 'Bev', 'Hank', 'Marge', 'Walt', 'Doris', 'Earl', 'Pam', 'Rick', 'Trish', 'Darnell', 'Keisha', 'Andre', 'Tamika',
] as const;

export const LAST_INITIALS = 'AABBBCCCDDEFFGGGHHHJJKKLLLMMMMNOPPRRRSSSSTTVWWWYZ' as const;

export interface Source {
  id: string;
  label: string;
  weight: number;
  /** Share of reviews from this source that carry a title. */
  titled: number;
}

export const SOURCES: readonly Source[] = [
  { id: 'google', label: 'Google', weight: 52, titled: 0.05 },
  { id: 'yelp', label: 'Yelp', weight: 18, titled: 0.25 },
  { id: 'website', label: 'their website', weight: 14, titled: 0.8 },
  { id: 'nextdoor', label: 'Nextdoor', weight: 9, titled: 0.1 },
  { id: 'facebook', label: 'Facebook', weight: 5, titled: 0 },
  { id: 'angi', label: 'Angi', weight: 2, titled: 0.9 },
];
