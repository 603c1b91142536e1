// The deterministic crowd the sandboxes are populated with: ≥ 20,000 profiles generated from a
// seed (names, bios, follower counts, verification, business/creator, DM settings, topics), plus
// follower/following lists and topic indexes computed on demand, so nothing large is stored.
import { hash32, pick, seededRandom, unitHash } from './random.ts'

export interface Profile {
  index: number
  id: string
  username: string
  name: string
  bio: string
  location: string
  followers: number
  following: number
  posts: number
  /** Legacy (organisation/government) verification. */
  verified: boolean
  /** Paid verification (X Premium's blue check). */
  blueVerified: boolean
  professional: 'Business' | 'Creator' | null
  /** False: the profile does not accept messages from us (X error 349 / Instagram "can't receive"). */
  canDm: boolean
  protected: boolean
  /** Accepts message requests only from verified senders (X error 476 for an unverified sender). */
  verifiedOnlyRequests: boolean
  topics: string[]
  createdAt: number
}

export const TOPICS = [
  'marketing',
  'saas',
  'startups',
  'fitness',
  'crypto',
  'design',
  'photography',
  'travel',
  'food',
  'gaming',
  'realestate',
  'ecommerce',
  'ai',
  'music',
  'fashion',
  'coaching',
  'webdev',
  'finance',
  'yoga',
  'coffee',
] as const

const FIRST = `maria james sofia liam emma noah olivia lucas ava mateo mia ethan isabella leo amelia
  daniel harper henry evelyn jack chloe samuel nora david zoe elias lina omar sara yusuf aisha
  hiro yuki chen mei ravi priya arjun ananya kofi amara tunde zara ivan olga pavel anna marco
  giulia pierre camille hans lena jonas freya diego lucia carlos elena tom kate ben lily`
  .split(/\s+/)
  .filter(Boolean)
const LAST = `lopez smith garcia johnson brown rossi muller dubois tanaka kim patel singh okafor
  mensah ivanov novak silva santos costa fischer weber moreau martin nguyen tran chen wang park
  khan ali hassan rahman cohen levi murphy kelly walsh andersen larsen berg nilsen jensen moreno
  ortiz ruiz romero bianchi ferrari conti hoffmann wagner becker schulz lang`
  .split(/\s+/)
  .filter(Boolean)
const CITIES = [
  'London',
  'New York, NY',
  'Berlin, Germany',
  'Lagos',
  'São Paulo',
  'Toronto',
  'Sydney',
  'Bangalore',
  'Paris',
  'Austin, TX',
  'Tokyo',
  'Madrid',
  'Amsterdam',
  'Dubai',
  'Nairobi',
  'Mexico City',
]
const COMPANIES = ['Acme', 'Northwind', 'Globex', 'Initech', 'Umbrella Labs', 'Hooli', 'Vandelay', 'Stark Co']
const BIO_TEMPLATES = [
  'Founder @ {company} | building in public | #{topic}',
  '{Topic} enthusiast. {city}. Opinions my own.',
  'Helping small teams grow with {topic}. DMs open.',
  'Coffee, code and {topic}.',
  '{Topic} coach • 10+ years • free tips every week',
  'Head of {Topic} at {company}',
  'Writing about {topic} and {topic2}.',
  'Dad, runner, {topic} nerd.',
  'Creator | {topic} | {topic2} | collabs via DM',
  'Shop owner. {Topic} lover from {city}.',
]

export interface PopulationOptions {
  seed: number
  size: number
  /** Prefix of every id, so the two platforms' ids never look alike. */
  idPrefix: string
  /** Instagram usernames may contain dots; X usernames may not. */
  allowDots: boolean
}

/** The longest follower/following list served per profile (counts above it are real numbers only). */
export const LIST_CAP = 3000

/** A person added by name (the demo's seeded leads), on top of the generated crowd. */
export interface NamedProfile {
  username: string
  name?: string
  bio?: string
  followers?: number
}

export class Population {
  readonly profiles: Profile[]
  /** Added by name, in order (their ids follow from it): found by id and username, never listed. */
  readonly named: NamedProfile[] = []
  readonly #byId = new Map<string, Profile>()
  readonly #byUsername = new Map<string, Profile>()
  readonly #byTopic = new Map<string, Profile[]>()

  constructor(readonly options: PopulationOptions) {
    const random = seededRandom(options.seed)
    const taken = new Set<string>()
    this.profiles = []
    for (let index = 0; index < options.size; index++) {
      const profile = makeProfile(index, random, options, taken)
      this.profiles.push(profile)
      this.#byId.set(profile.id, profile)
      this.#byUsername.set(profile.username.toLowerCase(), profile)
    }
  }

  byId(id: string): Profile | undefined {
    return this.#byId.get(id)
  }

  byUsername(username: string): Profile | undefined {
    return this.#byUsername.get(username.replace(/^@/, '').toLowerCase())
  }

  /**
   * Adds a person by name (the demo's seeded leads, so its campaign has someone to message): open
   * to DMs, public, not verified. Kept out of `profiles`, so lists and search stay as generated.
   */
  addNamed(spec: NamedProfile): Profile {
    const existing = this.byUsername(spec.username)
    if (existing) return existing
    const index = this.profiles.length + this.named.length
    const profile: Profile = {
      index,
      id: `${this.options.idPrefix}${String(index).padStart(8, '0')}`,
      username: spec.username.replace(/^@/, ''),
      name: spec.name ?? spec.username,
      bio: spec.bio ?? '',
      location: '',
      followers: spec.followers ?? 500,
      following: 300,
      posts: 120,
      verified: false,
      blueVerified: false,
      professional: null,
      canDm: true,
      protected: false,
      verifiedOnlyRequests: false,
      topics: ['saas'],
      createdAt: Date.UTC(2016, 0, 1),
    }
    this.named.push(spec)
    this.#byId.set(profile.id, profile)
    this.#byUsername.set(profile.username.toLowerCase(), profile)
    return profile
  }

  /** How many entries the follower (or following) list of a profile really has. */
  listLength(profile: Profile, kind: 'followers' | 'following'): number {
    return Math.min(kind === 'followers' ? profile.followers : profile.following, LIST_CAP)
  }

  /**
   * Entries [offset, offset+count) of a profile's follower or following list: a fixed
   * pseudo-random permutation of the population, so entries never repeat within a list.
   */
  listOf(profile: Profile, kind: 'followers' | 'following', offset: number, count: number): Profile[] {
    const n = this.profiles.length
    const length = this.listLength(profile, kind)
    let step = 1 + 2 * Math.floor(unitHash(profile.id, kind, 'step') * (n / 2 - 1))
    while (gcd(step, n) !== 1) step += 2
    const start = Math.floor(unitHash(profile.id, kind, 'start') * n)
    const out: Profile[] = []
    for (let k = offset; k < Math.min(length, offset + count); k++) {
      let j = (step * k + start) % n
      // the slot of position n-1 is never used (lists are shorter), so it stands in for "self"
      if (j === profile.index) j = (step * (n - 1) + start) % n
      const entry = this.profiles[j]
      if (entry) out.push(entry)
    }
    return out
  }

  /** Profiles that post about a topic (hashtag), in a fixed order. */
  withTopic(topic: string): Profile[] {
    const key = topic.replace(/^#/, '').toLowerCase()
    let list = this.#byTopic.get(key)
    if (!list) {
      list = this.profiles
        .filter((p) => p.topics.includes(key) || p.bio.toLowerCase().includes(`#${key}`))
        .sort((a, b) => hash32(`${key}:${a.id}`) - hash32(`${key}:${b.id}`))
      this.#byTopic.set(key, list)
    }
    return list
  }

  /** People search: every word of the query appears in the name, username or bio. */
  searchPeople(query: string): Profile[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean)
    if (words.length === 0) return []
    return this.profiles.filter((p) => {
      const haystack = `${p.name} ${p.username} ${p.bio}`.toLowerCase()
      return words.every((w) => haystack.includes(w.replace(/^#/, '')))
    })
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b)
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}

function makeProfile(
  index: number,
  random: () => number,
  options: PopulationOptions,
  taken: Set<string>,
): Profile {
  const first = pick(random, FIRST)
  const last = pick(random, LAST)
  const topicCount = 1 + Math.floor(random() * 3)
  const topics: string[] = []
  while (topics.length < topicCount) {
    const topic = pick(random, TOPICS)
    if (!topics.includes(topic)) topics.push(topic)
  }
  const [topic = 'marketing', topic2 = 'startups'] = topics
  const separator = options.allowDots && random() < 0.4 ? '.' : '_'
  const forms = [
    `${first}${separator}${last}`,
    `${first}${last}${Math.floor(random() * 100)}`,
    `the${last}${separator}${topic}`,
    `${first}${separator}${topic}`,
    `${last}${first.charAt(0)}${Math.floor(random() * 1000)}`,
  ]
  let username = pick(random, forms).slice(0, 15)
  if (taken.has(username)) username = `${username.slice(0, 10)}${index}`
  taken.add(username)

  const city = pick(random, CITIES)
  const bio =
    random() < 0.2
      ? ''
      : pick(random, BIO_TEMPLATES)
          .replace('{company}', pick(random, COMPANIES))
          .replace('{city}', city)
          .replace('{Topic}', capitalise(topic))
          .replace('{topic2}', topic2)
          .replaceAll('{topic}', topic)
  const r = random()
  const followers = Math.floor(10 ** (1 + r * r * 5.3))
  const professionalRoll = random()
  return {
    index,
    id: `${options.idPrefix}${String(index).padStart(8, '0')}`,
    username,
    name: `${capitalise(first)} ${capitalise(last)}`,
    bio,
    location: random() < 0.3 ? '' : city,
    followers,
    following: Math.floor(20 + random() * 1500),
    posts: Math.floor(random() * 20_000),
    verified: random() < 0.01,
    blueVerified: random() < 0.08,
    professional: professionalRoll < 0.07 ? 'Business' : professionalRoll < 0.15 ? 'Creator' : null,
    canDm: random() >= 0.12,
    protected: random() < 0.06,
    verifiedOnlyRequests: random() < 0.05,
    topics,
    createdAt: Date.UTC(2009, 0, 1) + Math.floor(random() * 15 * 365 * 86_400_000),
  }
}
