// Passwords that lead every published list of breached ones (SecLists' most common, Have I Been
// Pwned's top counts), kept to those of 8 characters or more: shorter ones are refused anyway.
// NIST SP 800-63B (5.1.1.2) asks that a chosen password be checked against such a list.
const LIST = `
password 12345678 123456789 1234567890 12345678910 123123123 987654321 11111111 00000000 88888888
password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword pa55word passwort motdepasse
qwertyuiop qwerty123 qwerty12 1q2w3e4r 1q2w3e4r5t 1qaz2wsx 1qaz2wsx3edc zaq12wsx qazwsxedc asdfghjkl
asdf1234 zxcvbnm123 abcd1234 abc12345 abcdefgh a1b2c3d4 aa123456 aa12345678 q1w2e3r4 q1w2e3r4t5
iloveyou iloveyou1 iloveyou2 princess sunshine football baseball basketball superman batman123
starwars trustno1 whatever welcome1 welcome123 letmein1 letmein123 changeme changeme123 default1
administrator admin123 admin1234 root1234 master123 computer internet 11223344 12341234 147258369
159753456 123qweasd 123qweasdzxc qweasdzxc michael1 jennifer jordan23 charlie1 liverpool chelsea1
arsenal1 dragon12 monkey12 shadow12 mustang1 pokemon1 naruto123 cheese123 blink182 butterfly
chocolate sunflower lovely123 loveme12 secret123 samsung1 1234qwer 12qwaszx 7777777777 999999999
Password Password1 Password123 Passw0rd P@ssw0rd P@ssword1 Welcome1 Welcome123 Qwerty123 Summer2024
Winter2024 Spring2024 Autumn2024 Summer2025 Winter2025 Summer2026 Winter2026 incident1 dispatch1 muster123
`;

/** The list, lower-cased: a password matches whatever its case. */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  LIST.split(/\s+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase()),
);

export const isCommonPassword = (password: string) => COMMON_PASSWORDS.has(password.normalize('NFKC').toLowerCase());
