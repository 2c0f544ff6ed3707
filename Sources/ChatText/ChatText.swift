import CChatICU
