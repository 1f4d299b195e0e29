// Name material for the background cast. Every email is pseudonymous and lives under example.com; the mix of
// people and companies, and of naming traditions, is what a real account's customer list looks like.

export const FIRST_NAMES = [
  "Amara", "Bjorn", "Chiara", "Dmitri", "Eleni", "Farhan", "Grace", "Hiroshi", "Ines", "Jamal", "Keiko", "Lars",
  "Mei", "Nikolai", "Olufemi", "Paloma", "Quentin", "Rania", "Sandeep", "Tamsin", "Ugo", "Valentina", "Wen",
  "Ximena", "Yusuf", "Zofia", "Aditi", "Bruno", "Camille", "Darius", "Esther", "Felipe", "Gulnara", "Hamid",
  "Ingrid", "Jonah", "Kavya", "Luca", "Marisol", "Nadia", "Oskar", "Priyanka", "Rafael", "Saoirse", "Tomasz",
  "Uma", "Viktor", "Wanjiru", "Yara", "Zane", "Abena", "Cormac", "Dalia", "Emeka", "Freya", "Goran", "Hana",
  "Isaac", "Jun", "Kofi", "Leila", "Mateo", "Noor", "Orla", "Pedro", "Rosa", "Soren", "Thandiwe", "Vikram",
  "Astrid", "Benedikt", "Carmen", "Diego", "Elif", "Fatima", "Gideon", "Hye-jin", "Ivo", "Julia", "Kwame",
  "Linnea", "Malik", "Nia", "Omar", "Petra", "Rohan", "Sakura", "Tariq", "Vera", "Wyatt", "Anh", "Beatriz",
];

export const LAST_NAMES = [
  "Okafor", "Lindqvist", "Moretti", "Volkov", "Papadakis", "Rahman", "Whitfield", "Tanaka", "Ferreira",
  "Haddad", "Nakamura", "Eriksen", "Zhang", "Petrov", "Adeyemi", "Alvarez", "Marchetti", "Khalil", "Iyer",
  "Trevelyan", "Obi", "Rossi", "Liu", "Castillo", "Demir", "Kowalski", "Nair", "Brennan", "Fischer", "Mendes",
  "Santos", "Osei", "Kaur", "Schneider", "Duarte", "Novak", "Halloran", "Bergstrom", "Mwangi", "Quispe",
  "Takahashi", "Andersen", "Yilmaz", "Dubois", "Gallagher", "Horvath", "Ibrahim", "Jansen", "Kimura", "Lopez",
  "Mensah", "Nguyen", "O'Connell", "Park", "Reyes", "Sato", "Tran", "Varga", "Weber", "Xu", "Young", "Zielinski",
  "Achebe", "Bianchi", "Chowdhury", "Dahl", "Esposito", "Fontaine", "Grünewald", "Hosseini", "Ivanova",
];

export const COMPANY_FIRST = [
  "Tealharbor", "Brightpath", "Copperleaf", "Bluefin", "Granite",
  "Juniper", "Lumen", "Maple & Moss", "Nimbus", "Orchard", "Pinecrest", "Quarry", "Riverbend", "Saltmarsh",
  "Thistle", "Upland", "Vantage", "Willowbrook", "Yellowtail", "Zephyr", "Amberline", "Birchwood", "Cinder",
  "Driftwood", "Emberly", "Foxglove", "Gullwing", "Heron", "Ironbark", "Kestrel", "Larkspur", "Meridian",
  "Nettle", "Oakhollow", "Paperkite", "Redwing", "Stonefly", "Tidewater", "Umber", "Verdant", "Wildrye",
  "Alder", "Bramble", "Cobalt", "Dovetail", "Eastgate", "Fernhill", "Goldcrest", "Highmoor", "Inkwell",
];

export const COMPANY_LAST = [
  "Analytics", "Labs", "Studio", "Logistics", "Dental", "Bakery", "Architects", "Consulting", "Outfitters",
  "Health", "Legal", "Media", "Robotics", "Foods", "Travel", "Ventures", "Clinic", "Partners", "Design",
  "Engineering", "Coffee Co.", "Press", "Collective", "Tutoring", "Events", "Fitness", "Realty", "Supply",
  "Veterinary", "Games", "Translations", "Accounting", "Brewing", "Florals", "Software", "Freight",
];

export const SUFFIXES = ["", "", "", " Ltd", " Inc.", " LLC", " GmbH", " S.L.", " Pty Ltd", " AB", " B.V.", " SAS"];

/** "Maple & Moss Bakery" -> "maplemoss" */
export function slug(text) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, "")
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, 18);
}

export function personSlug(first, last) {
  return `${slug(first)}.${slug(last)}`;
}
