"""The honest-claim rule reads Ukrainian claims with Ukrainian words (issue 34).

Phrasings as a teacher would write them: both directions (candidate better, baseline
better), each rung 2 to 5, negations, hedges, take-backs in a later clause and in the next
sentence, inflected forms, decimal commas and mixed-script claims ("MLP", "log loss" inside a
Ukrainian sentence). A careful student who writes "не перевершує" or "у межах шуму" must not
be marked as claiming rung 3, and one who writes "перевершує на 0,007" claims rung 4.
"""

from __future__ import annotations

import pytest

from reportgen.grading.claim import claimed_rung, honest, language_of

#: claims that assert no gain: each reaches rung 2 only, and names the words that weakened it
NO_GAIN = [
    # negations
    "MLP не перевершує градієнтний бустинг.",
    "MLP не краща за логістичну регресію за log loss.",
    "Тюнінг не покращує точність.",
    "Жодна з моделей не краща за іншу.",
    "Ні MLP, ні бустинг не кращі один за одного.",
    "Ми не стверджуємо, що MLP краща за бустинг.",
    "Немає доказів, що MLP краща.",
    "Ми не знайшли жодних доказів, що тюнінг підвищує точність.",
    "Не вдалося показати, що MLP знижує log loss.",
    "MLP ніколи не перевершувала бустинг на тесті.",
    # hedges, also set off by commas as Ukrainian writes them
    "MLP, можливо, краща за бустинг.",
    "Можливо, MLP трохи краща за градієнтний бустинг.",
    "MLP, мабуть, точніша.",
    "Імовірно, тюнінг підвищує AUC.",
    "Схоже, що MLP знижує log loss на 0,003.",
    "MLP може бути кращою за бустинг.",
    # take-backs in a later clause
    "MLP краща, але різниця в межах шуму.",
    "Log loss нижчий, проте це в межах похибки.",
    "MLP має вищий AUC, хоча різниця статистично не значуща.",
    "MLP перевершує бустинг, однак інтервал містить нуль.",
    "MLP знижує log loss на 0,003, що менше за шум сідів.",
    "MLP краща, але це може бути випадковістю.",
    "MLP краща, хоча не можна виключити, що це шум.",
    "Бустинг кращий за MLP, але це не доведено.",
    "MLP трохи краща, але різниця незначна.",
    "Результат MLP кращий, однак він може бути наслідком випадковості.",
    # take-backs in the next sentence
    "MLP перевершує градієнтний бустинг. Це може бути шум.",
    "MLP краща за бустинг на 0,007. Різниця в межах шуму.",
    "Тюнінг покращує точність. Але це може бути просто збіг.",
    "MLP краща; не можна виключити шум.",
    "Бустинг випереджає MLP. Можливо, це лише шум.",
    "MLP краща. Не виключено, що це шум.",
    # ties and plain statements
    "MLP і градієнтний бустинг порівнянні за якістю.",
    "Моделі еквівалентні за log loss.",
    "Між MLP і бустингом нічия.",
    "Статистично значущої різниці між моделями немає.",
    "Переваги MLP над бустингом не спостерігається.",  # the negation comes after
    "Різниця в log loss (0,007) менша, ніж розкид між сідами.",
    "Доказів того, що MLP краща, немає.",
    "Обидві моделі однаково добрі, як показано вище.",
    "У всіх моделей однакова точність, як показано вище.",  # "у всіх" here is "all have"
]

#: claims that assert a gain (3), its size or worth (4) or its reach (5)
GAIN = [
    # rung 3, candidate better, inflected forms
    ("MLP перевершує градієнтний бустинг за log loss.", 3),
    ("MLP перевершила бустинг на тестовій вибірці.", 3),
    ("MLP краща за логістичну регресію.", 3),
    ("Градієнтний бустинг з тюнінгом кращий.", 3),
    ("MLP дає краще значення AUC.", 3),
    ("MLP виявилася кращою за бустинг.", 3),
    ("MLP точніша за логістичну регресію.", 3),
    ("Тюнінг покращує точність.", 3),
    ("MLP знижує log loss на 5 сідах.", 3),  # "на 5 сідах" counts seeds, not a size
    ("Log loss у MLP нижчий, ніж у бустингу.", 3),
    ("MLP виграє у бустингу.", 3),
    ("Різниця на користь MLP.", 3),
    ("MLP перевершує випадковий ліс.", 3),  # "випадковий" is a forest, not chance
    ("Без будь-якого тюнінгу MLP краща.", 3),  # "any tuning" is no claim beyond the test
    ("У порівнянні з бустингом MLP краща.", 3),
    ("Обидві моделі навчено на однакових даних, і MLP краща.", 3),  # the same data: no tie
    # rung 3, baseline better
    ("Градієнтний бустинг випереджає MLP.", 3),
    ("MLP поступається бустингу за AUC.", 3),
    ("MLP слабша за бустинг.", 3),
    ("MLP гірша за градієнтний бустинг.", 3),
    ("Бустинг має вищий AUC, ніж MLP.", 3),
    # strengthening, not negating
    ("MLP не лише швидша, а й точніша.", 3),
    ("MLP без сумніву краща за бустинг.", 3),
    ("MLP безсумнівно перевершує бустинг.", 3),
    # take-backs negated or absent: still a claim
    ("MLP краща, і інтервал не містить нуля.", 3),
    ("MLP краща. Різниця не в межах шуму.", 3),
    ("MLP краща, і це не може бути шумом.", 3),
    ("Різниця більша за шум сідів: MLP краща.", 3),
    # rung 4: a size (decimal comma, points, percent) or a worth
    ("MLP перевершує градієнтний бустинг на 0,007 за log loss.", 4),
    ("MLP знижує log loss на 0,3 пункту.", 4),
    ("MLP знижує log loss на 0,3 п.п. порівняно з бустингом.", 4),
    ("Тюнінг підвищує точність на 5 %.", 4),
    ("Тюнінг підвищує точність на 5%.", 4),
    ("Бустинг кращий за MLP на 0.01 AUC.", 4),
    ("MLP зменшує втрати на 12 відсотків.", 4),
    ("MLP суттєво краща за бустинг.", 4),
    ("MLP статистично значуще краща.", 4),
    ("MLP корисна для бізнесу.", 4),
    ("Тюнінг економить 2 тисячі гривень на тиждень.", 4),
    ("Перехід на MLP вартий зусиль.", 4),
    ("MLP вдвічі зменшує кількість помилок.", 4),
    ("Після тюнінгу точність зросла з 0,62 до 0,81, тобто на 19 п. п.", 4),
    ("Тюнінг знижує витрати на 10 тис. грн на місяць.", 4),
    # rung 5: beyond the test
    ("MLP не гірша за градієнтний бустинг.", 5),
    ("MLP не поступається бустингу на жодному тижні.", 5),
    ("MLP нічим не гірша за бустинг.", 5),  # negative concord: one negation, "no worse"
    ("Тюнінг підвищує точність на 38 пунктів і нічого іншого не погіршує.", 5),
    ("Тюнінг покращує точність на 38 пунктів без шкоди для всього іншого.", 5),
    ("MLP завжди краща.", 5),
    ("MLP краща скрізь.", 5),
    ("Загалом MLP краща за бустинг.", 5),
    ("MLP краща на всіх тижнях.", 5),
    ("MLP краща в усіх 5 сегментах.", 5),
    ("MLP краща на кожному тижні.", 5),
    ("MLP стійка до зсуву даних.", 5),
    ("Перевага MLP надійна.", 5),
    ("MLP узагальнюється на нові дані.", 5),
    ("MLP перевершує бустинг на будь-яких даних.", 5),
    ("MLP краща за бустинг для будь-якого порогу.", 5),
    ("MLP працюватиме у продакшні не гірше.", 5),
    ("MLP перевершує бустинг скрізь. Це може бути шум.", 5),  # a take-back keeps rung 5
    ("MLP не краща за бустинг, але обидві стійкі до зсуву.", 5),
]

#: Ukrainian sentences keeping Latin names and metrics read as Ukrainian
MIXED = [
    ("MLP краща за XGBoost на ROC AUC і log loss.", 3),
    ("MLP перевершує GB на 0,007 за log loss.", 4),
    ("MLP не краща за GB за log loss.", 2),
    ("Log loss у MLP менший, але в межах шуму.", 2),
    ("Нова версія пайплайну підвищує recall на 0,04 і не погіршує precision.", 5),
]


@pytest.mark.parametrize("text", NO_GAIN)
def test_a_negated_or_hedged_ukrainian_claim_reaches_rung_2(text):
    reach = claimed_rung(text)
    assert reach.rung == 2, reach
    assert reach.language == "uk"
    assert reach.words, "feedback names the words that weakened it"
    assert honest(text, 2) and not honest(text, 1)


@pytest.mark.parametrize("text, rung", GAIN + MIXED)
def test_a_ukrainian_claim_reaches_its_rung(text, rung):
    reach = claimed_rung(text)
    assert reach.rung == rung, reach
    assert reach.language == "uk"
    assert honest(text, rung) and not honest(text, rung - 1)


def test_the_words_that_decide_are_named():
    assert claimed_rung("MLP не перевершує градієнтний бустинг.").words == ("не",)
    assert claimed_rung("MLP краща, але різниця в межах шуму.").words == ("в межах шуму",)
    assert claimed_rung("MLP перевершує GB. Це може бути шум.").words == ("може бути шум",)
    assert claimed_rung("MLP перевершує GB на 0,007 за log loss.").words == ("на 0,007",)
    assert claimed_rung("Тюнінг підвищує точність на 5 %.").words == ("на 5 %",)
    assert claimed_rung("MLP не гірша за GB.").words == ("не гірша",)
    assert claimed_rung("MLP виявилася кращою.").words == ("кращою",)


def test_apostrophes_and_abbreviations_keep_words_and_sentences_whole():
    # ' and ’ inside a word are the Ukrainian apostrophe: "зʼясовано" is one word
    for text in (
        "Чи MLP краща, не зʼясовано.",
        "Чи MLP краща, не з'ясовано.",
        "Чи MLP краща, не з’ясовано.",
    ):
        assert claimed_rung(text).rung == 2, text
        assert claimed_rung(text).words == ("не зʼясовано",)
    assert claimed_rung("Обʼєм помилок менший.").words == ("менший",)
    # "п.п." does not end the sentence: the take-back after it still retracts the size
    assert claimed_rung("MLP краща на 0,3 п.п. у межах шуму.").rung == 2
    # the decimal comma ends no clause: "навряд" still hedges the "краща" after "0,5"
    assert claimed_rung("Навряд чи при порозі 0,5 MLP краща.").rung == 2
    # "вище" as "above" and a 95 % interval are neither a comparison nor a size
    assert claimed_rung("Як показано вище, маємо 95 % довірчий інтервал.").rung == 2


def test_each_claim_reads_in_its_own_language():
    english = "The MLP beats gradient boosting by 0.007."
    ukrainian = "MLP перевершує градієнтний бустинг на 0,007."
    assert claimed_rung(english) == claimed_rung(english)  # deterministic
    assert (claimed_rung(english).rung, claimed_rung(english).language) == (4, "en")
    assert (claimed_rung(ukrainian).rung, claimed_rung(ukrainian).language) == (4, "uk")
    # English negations do not reach into Ukrainian text, nor Ukrainian into English
    assert claimed_rung("The MLP does not beat gradient boosting.").rung == 2
    assert claimed_rung("The MLP is better (краща).").rung == 3
    # each sentence in its own language: a Ukrainian take-back retracts an English claim
    assert claimed_rung("The MLP beats gradient boosting. Це може бути шум.").rung == 2
    assert claimed_rung("MLP перевершує бустинг. This may be noise.").rung == 2
    assert language_of("MLP краща за XGBoost на ROC AUC") == "uk"
    # an English sentence with a Ukrainian gloss: its function words are English
    gloss = "The MLP beats gradient boosting (градієнтний бустинг) by 0.007."
    assert (claimed_rung(gloss).rung, claimed_rung(gloss).language) == (4, "en")
    assert claimed_rung("MLP outperforms GB by 0.007 (див. таблицю).").rung == 4
    assert language_of("The MLP beats XGBoost") == "en"
    assert language_of("0,007", default="uk") == "uk"


def test_at_least_sixty_phrasings():
    assert len(NO_GAIN) + len(GAIN) + len(MIXED) >= 60
    assert len(NO_GAIN) >= 20 and len(GAIN) >= 20
