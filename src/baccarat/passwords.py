"""Passwords: a policy for choosing one, and argon2id hashes to store it.

Hashes are argon2id (memory-hard) in the PHC string format, which carries its own salt and
parameters, so ``needs_rehash`` can tell when a stored hash was made with weaker ones. The
parameters are OWASP's first choice for argon2id (19 MiB, 2 passes, 1 lane): about 20 ms
on one core, so a login costs the server little and a guess costs an attacker as much.

A password is normalised to Unicode NFKC before it is checked or hashed, so the same
password typed on two keyboards (composed or decomposed accents) is the same password.

>>> password_problems("hunter")
['a password needs at least 10 characters (this one has 6)', 'a password mixes at least two of: lower case, upper case, digits, other characters']
>>> password_problems("correct horse battery staple")
[]
>>> stored = hash_password("correct horse battery staple")
>>> stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
True
>>> verify_password(stored, "correct horse battery staple"), verify_password(stored, "wrong")
(True, False)
>>> needs_rehash(stored)
False
"""

from __future__ import annotations

import unicodedata

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

__all__ = [
    "HASHER",
    "MAX_LENGTH",
    "MIN_LENGTH",
    "PasswordError",
    "check_password",
    "dummy_verify",
    "hash_password",
    "needs_rehash",
    "normalize",
    "password_problems",
    "verify_password",
]

MIN_LENGTH = 10
#: Longer is no safer and only makes hashing a tool for denial of service.
MAX_LENGTH = 256

#: argon2id with OWASP's recommended parameters (m = 19 MiB, t = 2, p = 1).
HASHER = PasswordHasher(
    time_cost=2, memory_cost=19_456, parallelism=1, hash_len=32, salt_len=16, type=Type.ID
)

#: Passwords that are too common, compared after removing leading and trailing digits and
#: punctuation and ignoring case ("Password123!" is "password").
_COMMON = frozenset(
    {
        "password",
        "passw0rd",
        "qwerty",
        "qwertyuiop",
        "azerty",
        "letmein",
        "welcome",
        "iloveyou",
        "admin",
        "abc",
        "abcdef",
        "abcdefgh",
        "monkey",
        "dragon",
        "football",
        "baseball",
        "sunshine",
        "princess",
        "baccarat",
        "casino",
        "jackpot",
        "changeme",
        "secret",
    }
)

_CLASSES = ("lower case", "upper case", "digits", "other characters")


class PasswordError(ValueError):
    """A password the policy refuses, or a stored hash that cannot be read."""


def normalize(password: str) -> str:
    """The password as it is checked and hashed: Unicode NFKC.

    >>> normalize("e\\u0301") == normalize("\\u00e9") == "\\u00e9"
    True
    """
    return unicodedata.normalize("NFKC", password)


def _character_class(char: str) -> int:
    if char.islower():
        return 0
    if char.isupper():
        return 1
    if char.isdigit():
        return 2
    return 3


def _core(password: str) -> str:
    return password.lower().strip("0123456789!@#$%^&*()-_=+[]{};:'\",.<>/?\\|`~ ")


def password_problems(password: str, *, username: str | None = None) -> list[str]:
    """Why ``password`` may not be used, one sentence per rule broken (empty: it may).

    The rules: 10 to 256 characters; at least two kinds of character (lower case, upper
    case, digits, anything else); at least 5 different characters; not a very common word
    dressed with digits or punctuation; not containing the username (of 3 or more letters).

    >>> password_problems("aaaaaaaaaa1")
    ['a password needs at least 5 different characters (this one has 2)']
    >>> password_problems("Password2024!")
    ['a password must not be a common word with digits or symbols around it']
    >>> password_problems("lucky-luke-42", username="Luke")
    ['a password must not contain the username']
    """
    if not isinstance(password, str):
        raise TypeError(f"a password is text, not {type(password).__name__}")
    text = normalize(password)
    problems: list[str] = []
    if len(text) < MIN_LENGTH:
        problems.append(
            f"a password needs at least {MIN_LENGTH} characters (this one has {len(text)})"
        )
    if len(text) > MAX_LENGTH:
        problems.append(
            f"a password has at most {MAX_LENGTH} characters (this one has {len(text)})"
        )
    if len({_character_class(char) for char in text}) < 2:
        problems.append(f"a password mixes at least two of: {', '.join(_CLASSES)}")
    distinct = len(set(text))
    if len(text) >= MIN_LENGTH and distinct < 5:
        problems.append(
            f"a password needs at least 5 different characters (this one has {distinct})"
        )
    if _core(text) in _COMMON:
        problems.append("a password must not be a common word with digits or symbols around it")
    name = normalize(username).strip().lower() if username else ""
    if len(name) >= 3 and name in text.lower():
        problems.append("a password must not contain the username")
    return problems


def check_password(password: str, *, username: str | None = None) -> None:
    """Raise ``PasswordError`` with every problem of ``password`` in one message, if any.

    >>> check_password("short")
    Traceback (most recent call last):
    ...
    baccarat.passwords.PasswordError: a password needs at least 10 characters (this one has 5); a password mixes at least two of: lower case, upper case, digits, other characters
    """
    problems = password_problems(password, username=username)
    if problems:
        raise PasswordError("; ".join(problems))


def hash_password(password: str, *, hasher: PasswordHasher = HASHER) -> str:
    """The argon2id PHC string to store for ``password`` (a fresh random salt each time).

    The policy is not checked here (``check_password`` is, at registration): an existing
    password must always be hashable, whatever the policy has become since.
    """
    return hasher.hash(normalize(password))


def verify_password(stored: str, password: str, *, hasher: PasswordHasher = HASHER) -> bool:
    """Whether ``password`` matches the ``stored`` hash. A malformed hash raises ``PasswordError``."""
    try:
        return hasher.verify(stored, normalize(password))
    except VerifyMismatchError:
        return False
    except InvalidHashError:
        raise PasswordError("the stored password hash is not an argon2 hash") from None
    except VerificationError:
        return False


def needs_rehash(stored: str, *, hasher: PasswordHasher = HASHER) -> bool:
    """Whether ``stored`` was made with other parameters: rehash it at the next good login."""
    try:
        return hasher.check_needs_rehash(stored)
    except InvalidHashError:
        raise PasswordError("the stored password hash is not an argon2 hash") from None


_DUMMY: dict[PasswordHasher, str] = {}


def dummy_verify(password: str, *, hasher: PasswordHasher = HASHER) -> bool:
    """Spend the time of one verification and return ``False``.

    Called for a login with an unknown name, so that it takes as long as a wrong password
    and the response time does not tell which names exist.
    """
    if hasher not in _DUMMY:
        _DUMMY[hasher] = hasher.hash("a password nobody has")
    verify_password(_DUMMY[hasher], password, hasher=hasher)
    return False
